package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

    /**
     * A shell whose first child spins for two seconds and ends, reaped; then it waits on a
     * second child that sleeps.
     */
    private static Process shellAfterABusyChild() throws Exception {
        return new ProcessBuilder("sh", "-c", "timeout 2 sh -c 'while :; do :; done'; sleep 60 & wait").start();
    }

    @Test
    void aProcessCounts_itsReapedChildren_unlessTheChildIsMeasuredItself() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "Linux's /proc");
        Process shell = shellAfterABusyChild();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (CpuMeter.reapedChildren(shell.pid()).compareTo(Duration.ofMillis(300)) < 0) {
                assertThat(System.nanoTime()).as("the busy child's CPU in its parent's reading: %s",
                        CpuMeter.reapedChildren(shell.pid())).isLessThan(deadline);
                Thread.onSpinWait();
            }
            Duration own = shell.info().totalCpuDuration().orElseThrow();
            Duration counted = new CpuMeter(List.of(shell.pid()), List.of()).read().server().orElseThrow();
            assertThat(counted).isGreaterThanOrEqualTo(own.plusMillis(300));

            long sleeper = awaitChild(shell, deadline);
            Duration both = new CpuMeter(List.of(shell.pid(), sleeper), List.of()).read().server().orElseThrow();
            assertThat(both).as("the shell's reaped children are not counted when a child of it is measured")
                    .isLessThan(own.plusMillis(300));
        } finally {
            shell.destroyForcibly().waitFor();
        }
    }

    private static long awaitChild(Process shell, long deadline) {
        while (true) {
            var child = shell.children().findFirst();
            if (child.isPresent()) {
                return child.get().pid();
            }
            assertThat(System.nanoTime()).as("the shell's sleeping child").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aServerIsQuiet_withAChildThatWaits_andNotWithOneAtWork() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "Linux's /proc");
        Process waiting = new ProcessBuilder("sh", "-c", "sleep 60 & wait").start();
        Process working = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            awaitChild(waiting, deadline);
            awaitChild(working, deadline);
            assertThat(new CpuMeter(waiting.pid()).awaitQuiet(0.1, Duration.ofMillis(300), Duration.ofSeconds(10)))
                    .as("a shell whose child sleeps").isTrue();
            assertThat(new CpuMeter(working.pid()).awaitQuiet(0.1, Duration.ofMillis(300), Duration.ofSeconds(2)))
                    .as("a shell whose child spins").isFalse();
        } finally {
            for (Process shell : List.of(waiting, working)) {
                shell.descendants().forEach(ProcessHandle::destroyForcibly);
                shell.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void aProcessThatIsGone_countsNoChildren() {
        assertThat(CpuMeter.reapedChildren(Long.MAX_VALUE)).isZero();
    }
}
