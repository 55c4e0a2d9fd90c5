package dev.cim.common.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.wheel.DelayScheduler;
import dev.cim.common.wheel.JobState;
import dev.cim.common.wheel.ScheduledJob;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class CimWheelAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(CimWheelAutoConfiguration.class));

    @Test
    void noProperties_givesASchedulerWithTheDefaults() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(DelayScheduler.class).hasSingleBean(DelaySchedulerDrain.class);
            CimWheelProperties defaults = context.getBean(CimWheelProperties.class);
            assertThat(defaults.getTick()).isEqualTo(Duration.ofMillis(10));
            assertThat(defaults.getSlots()).isEqualTo(512);
            assertThat(defaults.getWorkerThreads()).isEqualTo(2);
            assertThat(defaults.getMaxPending()).isZero();
            assertThat(defaults.getMaxDelay()).isEqualTo(Duration.ofDays(30));
            assertThat(defaults.getDrainTimeout()).isEqualTo(Duration.ofSeconds(30));
            DelayScheduler wheel = context.getBean(DelayScheduler.class);
            ScheduledJob farthest = wheel.schedule(() -> { }, Duration.ofDays(30));
            assertThat(farthest.state()).isEqualTo(JobState.PENDING);
            assertThat(farthest.cancel()).isTrue();
        });
    }

    @Test
    void properties_areBoundToTheScheduler() {
        runner.withPropertyValues("cim.wheel.tick=5ms", "cim.wheel.slots=64", "cim.wheel.worker-threads=1",
                "cim.wheel.max-pending=1", "cim.wheel.max-delay=1h", "cim.wheel.drain-timeout=2s").run(context -> {
                    CimWheelProperties bound = context.getBean(CimWheelProperties.class);
                    assertThat(bound.getTick()).isEqualTo(Duration.ofMillis(5));
                    assertThat(bound.getSlots()).isEqualTo(64);
                    assertThat(bound.getWorkerThreads()).isEqualTo(1);
                    assertThat(bound.getDrainTimeout()).isEqualTo(Duration.ofSeconds(2));
                    DelayScheduler wheel = context.getBean(DelayScheduler.class);
                    assertThatThrownBy(() -> wheel.schedule(() -> { }, Duration.ofHours(2)))
                            .hasMessageContaining("PT1H");
                    ScheduledJob only = wheel.schedule(() -> { }, Duration.ofMinutes(1));
                    assertThatThrownBy(() -> wheel.schedule(() -> { }, Duration.ofMinutes(1)))
                            .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("cap is 1");
                    only.cancel();
                });
    }

    @Test
    void enabledFalse_givesNoSchedulerAndNoDrain() {
        runner.withPropertyValues("cim.wheel.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(DelayScheduler.class);
            assertThat(context).doesNotHaveBean(DelaySchedulerDrain.class);
        });
    }

    @Test
    void aSchedulerOfTheApplication_winsOverTheDefault() {
        runner.withUserConfiguration(OwnScheduler.class).run(context -> {
            assertThat(context).hasSingleBean(DelayScheduler.class);
            assertThat(context.getBean(DelayScheduler.class)).isSameAs(context.getBean(OwnScheduler.class).scheduler);
            assertThat(context).hasSingleBean(DelaySchedulerDrain.class);
        });
    }

    @Test
    void invalidProperties_failAtStartUpNamingTheSettingAndWhatWasExpected() {
        runner.withPropertyValues("cim.wheel.slots=100").run(context -> assertThat(context).getFailure()
                .rootCause().hasMessage("slots (expected: a power of two >= 2): 100"));
        runner.withPropertyValues("cim.wheel.slots=100").run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("Invalid cim.wheel settings: slots (expected: a power of two >= 2): 100"));
        runner.withPropertyValues("cim.wheel.tick=500us").run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("tick (expected: at least 1ms): PT0.0005S"));
        runner.withPropertyValues("cim.wheel.max-delay=-1s").run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("maxDelay (expected: from 1ms to"));
    }

    @Test
    void closingTheContext_letsPendingJobsRunAtTheirTimeFirst() {
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledJob[] job = new ScheduledJob[1];
        runner.run(context -> job[0] = context.getBean(DelayScheduler.class)
                .schedule(() -> ran.set(true), Duration.ofMillis(200)));

        assertThat(ran).isTrue();
        assertThat(job[0].state()).isEqualTo(JobState.DONE);
    }

    @Test
    void closingTheContext_discardsWhatTheDrainTimeoutLeavesWithoutWaitingForIt() {
        ScheduledJob[] job = new ScheduledJob[1];
        long started = System.nanoTime();
        runner.withPropertyValues("cim.wheel.drain-timeout=1h").run(context -> job[0] = context
                .getBean(DelayScheduler.class).schedule(() -> { }, Duration.ofHours(2)));

        assertThat(job[0].state()).isEqualTo(JobState.DISCARDED);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMinutes(1));
    }

    @Test
    void drainOnStopFalse_noDrain_aJobDueSoonIsDiscardedAtTheClose_notRun() {
        ScheduledJob[] job = new ScheduledJob[1];
        boolean[] ran = {false};
        runner.withPropertyValues("cim.wheel.drain-on-stop=false", "cim.wheel.drain-timeout=1h").run(context -> {
            assertThat(context).doesNotHaveBean(DelaySchedulerDrain.class);
            job[0] = context.getBean(DelayScheduler.class).schedule(() -> ran[0] = true, Duration.ofMillis(300));
        });

        assertThat(job[0].state()).isEqualTo(JobState.DISCARDED);
        assertThat(ran[0]).isFalse();
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnScheduler {

        final DelayScheduler scheduler = DelayScheduler.builder().threadNamePrefix("own").build();

        @Bean
        DelayScheduler ownDelayScheduler() {
            return scheduler;
        }
    }
}
