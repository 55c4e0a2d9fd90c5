package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoadCommandTest {

    @Test
    void noArguments_giveTheFullRun() {
        LoadOptions options = LoadOptions.parse(new String[0]);

        assertThat(options.quick()).isFalse();
        assertThat(options.users()).isEqualTo(1000);
        assertThat(options.windows()).containsExactly(2000, 5000, 10000, 20000);
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.parts()).isEqualTo(Set.of(1, 2, 3, 4));
        assertThat(options.childServer()).isTrue();
    }

    @Test
    void quick_givesSmokeTestDefaults_butExplicitValuesWin() {
        LoadOptions options = LoadOptions.parse(new String[] {"--quick", "--users=70", "--window=3,4", "--hold=1s"});

        assertThat(options.users()).isEqualTo(70);
        assertThat(options.windows()).containsExactly(3, 4);
        assertThat(options.hold()).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.serverArgs()).contains("--cim.server.idle-timeout=6s");
    }

    @Test
    void serverArgs_areRepeatable() {
        LoadOptions options = LoadOptions.parse(new String[] {"--server-arg=--a=1", "--server-arg=--b=2", "--port=9000"});

        assertThat(options.serverArgs()).isEqualTo(List.of("--a=1", "--b=2"));
        assertThat(options.childServer()).isFalse();
    }

    @Test
    void unknownOption_isRefusedInOneLineNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--frobnicate=1"}))
                .withMessageContaining("--frobnicate").withMessageContaining("--help");
    }

    @Test
    void malformedDuration_isRefusedSayingWhatWasExpected() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--hold=soon"}))
                .withMessageContaining("--hold").withMessageContaining("expected: a whole number and a unit");
    }

    @Test
    void partOutOfRange_isRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=5"}))
                .withMessageContaining("--parts");
    }

    @Test
    void help_printsEveryOptionAndReturnsNothing() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThat(LoadOptions.parse(new String[] {"--help"})).isNull();
        } finally {
            System.setOut(out);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("--users", "--window", "--quick", "--server-arg");
    }
}
