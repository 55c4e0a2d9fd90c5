package dev.cim.common.autoconfigure;

import dev.cim.common.wheel.DelayScheduler;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Gives every application that depends on {@code cim-common} a {@link DelayScheduler} bean, set by
 * {@link CimWheelProperties}, unless it defines its own. When the context closes, pending jobs keep
 * running at their due times for up to {@code cim.wheel.drain-timeout}; whatever is left then is
 * discarded and logged ({@code cim.wheel.drain-on-stop=false}: discarded at once, when the wheel is
 * destroyed). {@code cim.wheel.enabled=false} turns it off.
 *
 * <p>The bean costs no thread until something is scheduled on it: an application that never
 * schedules never starts the wheel's ticker or workers.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "cim.wheel.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CimWheelProperties.class)
public final class CimWheelAutoConfiguration {

    /** The wheel; stopped outright at destruction in case the drain never ran (a failed start-up). */
    @Bean(destroyMethod = "stopNow")
    @ConditionalOnMissingBean
    DelayScheduler delayScheduler(CimWheelProperties properties) {
        try {
            return DelayScheduler.builder()
                    .tick(properties.getTick())
                    .slots(properties.getSlots())
                    .workerThreads(properties.getWorkerThreads())
                    .maxPending(properties.getMaxPending())
                    .maxDelay(properties.getMaxDelay())
                    .shutdownTimeout(properties.getDrainTimeout())
                    .build();
        } catch (IllegalArgumentException | NullPointerException invalid) {
            throw new IllegalStateException("Invalid cim.wheel settings: " + invalid.getMessage(), invalid);
        }
    }

    /**
     * Drains whichever scheduler bean there is, ours or the application's, when the context stops;
     * not with {@code cim.wheel.drain-on-stop=false}.
     */
    @Bean
    @ConditionalOnBean(DelayScheduler.class)
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "cim.wheel.drain-on-stop", matchIfMissing = true)
    DelaySchedulerDrain delaySchedulerDrain(DelayScheduler scheduler, CimWheelProperties properties) {
        return new DelaySchedulerDrain(scheduler, properties.getDrainTimeout());
    }
}
