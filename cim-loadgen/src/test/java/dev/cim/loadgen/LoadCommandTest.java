package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.cim.common.schedule.Recurrence;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
        assertThat(options.parts()).isEqualTo(Set.of(1, 2, 3, 4, 5));
        assertThat(options.childServer()).isTrue();
        assertThat(options.tls()).isEqualTo(LoadOptions.TlsMode.OFF);
        assertThat(options.rounds()).isEqualTo(4);
    }

    @Test
    void tls_readsOffOnOrBoth_bothOnlyForPartOneOnChildServers() {
        assertThat(LoadOptions.parse(new String[] {"--tls=on"}).tls()).isEqualTo(LoadOptions.TlsMode.ON);
        LoadOptions both = LoadOptions.parse(new String[] {"--quick", "--tls=BOTH", "--parts=1"});
        assertThat(both.tls()).isEqualTo(LoadOptions.TlsMode.BOTH);
        assertThat(both.rounds()).isEqualTo(2);

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--tls=maybe"}))
                .withMessage("--tls: 'maybe' (expected: off, on or both)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--tls=both"}))
                .withMessage("--tls=both compares part 1 on two child servers (expected: --parts=1 and no --port)");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--tls=both", "--parts=1", "--port=9000"}))
                .withMessageContaining("no --port");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--tls=on", "--tls-trust=ca.pem"}))
                .withMessageContaining("expected: with --tls=on and --port");
        assertThat(LoadOptions.parse(new String[] {"--tls=on", "--port=9000", "--tls-trust=ca.pem",
            "--tls-server-name=chat.example"}).tlsServerName()).isEqualTo("chat.example");
    }

    @Test
    void transport_readsTcpWebSocketOrBoth_bothOnlyForPartOne_neitherOtherThanTcpWithAnExternalServer() {
        assertThat(LoadOptions.parse(new String[0]).transport()).isEqualTo(LoadOptions.TransportMode.TCP);
        assertThat(LoadOptions.parse(new String[] {"--transport=WebSocket"}).transport())
                .isEqualTo(LoadOptions.TransportMode.WEBSOCKET);
        LoadOptions both = LoadOptions.parse(new String[] {"--transport=both", "--parts=1", "--rounds=3"});
        assertThat(both.transport()).isEqualTo(LoadOptions.TransportMode.BOTH);
        assertThat(both.rounds()).isEqualTo(3);
        assertThat(LoadOptions.parse(new String[] {"--transport=both", "--parts=1", "--tls-rounds=5"}).rounds())
                .isEqualTo(5);

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--transport=udp"}))
                .withMessage("--transport: 'udp' (expected: tcp, websocket or both)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--transport=both"}))
                .withMessage("--transport=both compares part 1 over TCP and WebSocket on one child server "
                        + "(expected: --parts=1 and not --tls=both)");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--transport=both", "--parts=1", "--tls=both"}))
                .withMessageContaining("not --tls=both");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--transport=websocket", "--port=9000"}))
                .withMessage("--transport=websocket needs the child server, whose web port the generator knows "
                        + "(expected: no --port)");
    }

    @Test
    void against_readsTwoDifferentSides_forPartOneOnChildProcessesOverPlaintextTcp() {
        assertThat(LoadOptions.parse(new String[] {}).against()).isEmpty();
        LoadOptions options = LoadOptions.parse(new String[] {"--against=server,relay", "--parts=1"});
        assertThat(options.against()).containsExactly(LoadOptions.Against.SERVER, LoadOptions.Against.RELAY);
        assertThat(options.plot()).isEqualTo(java.nio.file.Path.of("latency-curve.png"));
        assertThat(LoadOptions.parse(new String[] {"--against=relay-acked,relay", "--parts=1", "--plot=x.png"}))
                .satisfies(o -> assertThat(o.against()).containsExactly(LoadOptions.Against.RELAY_ACKED,
                        LoadOptions.Against.RELAY))
                .satisfies(o -> assertThat(o.plot()).isEqualTo(java.nio.file.Path.of("x.png")));

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--against=server,mqtt"}))
                .withMessage("--against: 'mqtt' (expected: server, relay, relay-acked, mosquitto or ejabberd)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LoadOptions.parse(new String[] {"--against=relay,relay", "--parts=1"}))
                .withMessage("--against: [relay, relay] (expected: two different sides, e.g. --against=server,relay)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LoadOptions.parse(new String[] {"--against=server", "--parts=1"}))
                .withMessageStartingWith("--against: [server] (expected: two different sides");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--against=server,relay"}))
                .withMessage("--against compares part 1 on child processes over plaintext TCP (expected: --parts=1, "
                        + "no --port, --tls=off, --transport=tcp)");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--against=server,relay", "--parts=1", "--tls=on"}))
                .withMessageStartingWith("--against compares part 1 on child processes");
    }

    @Test
    void againstMosquitto_eitherSide_startsABrokerOrNamesARunningOne() {
        LoadOptions started = LoadOptions.parse(new String[] {"--against=server,mosquitto", "--parts=1"});
        assertThat(started.against()).containsExactly(LoadOptions.Against.SERVER, LoadOptions.Against.MOSQUITTO);
        assertThat(started.mqttPort()).isZero();
        assertThat(started.peerScriptDir()).isEqualTo(java.nio.file.Path.of("bin"));
        LoadOptions running = LoadOptions.parse(new String[] {"--against=mosquitto,relay", "--parts=1",
            "--mqtt-port=1884", "--mqtt-dir=/tmp/broker", "--peer-script-dir=/opt/cim/bin"});
        assertThat(running.against()).containsExactly(LoadOptions.Against.MOSQUITTO, LoadOptions.Against.RELAY);
        assertThat(running.mqttPort()).isEqualTo(1884);
        assertThat(running.mqttDir()).isEqualTo(java.nio.file.Path.of("/tmp/broker"));
        assertThat(running.peerScriptDir()).isEqualTo(java.nio.file.Path.of("/opt/cim/bin"));

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--mqtt-port=1884"}))
                .withMessage("--mqtt-port and --mqtt-dir are for --against with mosquitto (expected: "
                        + "--against=server,mosquitto or the like)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,mosquitto", "--parts=1", "--mqtt-port=70000"}))
                .withMessage("--mqtt-port: 70000 (expected: 1 to 65535, or 0 to start mosquitto)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,mosquitto", "--parts=1", "--mqtt-dir=/tmp/broker"}))
                .withMessageEndingWith("(expected: with its --mqtt-port)");
    }

    @Test
    void curveTop_setsTheCurvesHundredPercent_orLeavesItToTheFasterSide() {
        assertThat(LoadOptions.parse(new String[] {"--against=server,mosquitto", "--parts=1"}).curveTop()).isZero();
        assertThat(LoadOptions.parse(new String[] {"--against=server,mosquitto", "--parts=1", "--curve-top=3000"})
                .curveTop()).isEqualTo(3000);
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--curve-top=-5"}))
                .withMessage("--curve-top: -5 (expected: msgs/s > 0, or 0 for the faster side's closed-loop rate)");
    }

    @Test
    void kneeSearches_repeatTheSearch_onceUnlessAsked() {
        assertThat(LoadOptions.parse(new String[] {"--against=server,relay", "--parts=1"}).kneeSearches()).isEqualTo(1);
        assertThat(LoadOptions.parse(new String[] {"--against=server,relay", "--parts=1", "--knee-searches=5"})
                .kneeSearches()).isEqualTo(5);
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--knee-searches=0"}))
                .withMessage("--knee-searches: 0 (expected: >= 1)");
    }

    @Test
    void againstEjabberd_eitherSide_startsOneOrNamesARunningOne() {
        LoadOptions started = LoadOptions.parse(new String[] {"--against=server,ejabberd", "--parts=1"});
        assertThat(started.against()).containsExactly(LoadOptions.Against.SERVER, LoadOptions.Against.EJABBERD);
        assertThat(started.xmppPort()).isZero();
        assertThat(started.xmppDir()).isNull();
        LoadOptions running = LoadOptions.parse(new String[] {"--against=ejabberd,mosquitto", "--parts=1",
            "--xmpp-port=5322", "--xmpp-dir=/var/lib/cim-ejabberd", "--mqtt-port=1884"});
        assertThat(running.against()).containsExactly(LoadOptions.Against.EJABBERD, LoadOptions.Against.MOSQUITTO);
        assertThat(running.xmppPort()).isEqualTo(5322);
        assertThat(running.xmppDir()).isEqualTo(java.nio.file.Path.of("/var/lib/cim-ejabberd"));
        assertThat(running.mqttPort()).isEqualTo(1884);

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--xmpp-port=5322"}))
                .withMessage("--xmpp-port and --xmpp-dir are for --against with ejabberd (expected: "
                        + "--against=server,ejabberd or the like)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,mosquitto", "--parts=1", "--xmpp-dir=/tmp/ejabberd"}))
                .withMessageStartingWith("--xmpp-port and --xmpp-dir are for --against with ejabberd");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,ejabberd", "--parts=1", "--xmpp-port=70000"}))
                .withMessage("--xmpp-port: 70000 (expected: 1 to 65535, or 0 to start ejabberd)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,ejabberd", "--parts=1", "--xmpp-port=-1"}))
                .withMessage("--xmpp-port: -1 (expected: 1 to 65535, or 0 to start ejabberd)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,ejabberd", "--parts=1", "--xmpp-dir=/tmp/ejabberd"}))
                .withMessage("--xmpp-dir: /tmp/ejabberd is the directory of a running ejabberd (expected: with its "
                        + "--xmpp-port)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {
            "--against=server,ejabberd", "--parts=1", "--xmpp-port=five"}))
                .withMessageContaining("--xmpp-port").withMessageEndingWith("(see --help)");
    }

    @Test
    void nodes_moreThanOneNeedChildServersOnASharedRedis_andCpuPidsAreRead() {
        assertThat(LoadOptions.parse(new String[] {}).nodes()).isEqualTo(1);
        LoadOptions options = LoadOptions.parse(new String[] {"--nodes=3", "--cpu-pids=11,12",
                "--server-arg=--cim.server.redis.embedded=false"});
        assertThat(options.nodes()).isEqualTo(3);
        assertThat(options.cpuPids()).containsExactly(11L, 12L);

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--nodes=0"}))
                .withMessage("--nodes: 0 (expected: >= 1)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--nodes=2"}))
                .withMessageStartingWith("--nodes=2 starts that many child servers on one shared Redis (expected:");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--nodes=2",
                        "--port=9000", "--server-arg=--cim.server.redis.embedded=false"}))
                .withMessageStartingWith("--nodes=2 starts");
    }

    @Test
    void generators_splitPartThreeAlone_againstChildServers() {
        assertThat(LoadOptions.parse(new String[] {}).generators()).isEqualTo(1);
        assertThat(LoadOptions.parse(new String[] {"--parts=3", "--generators=6", "--nodes=6",
                "--server-arg=--cim.server.redis.embedded=false"}).generators()).isEqualTo(6);

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--generators=0"}))
                .withMessage("--generators: 0 (expected: >= 1)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--generators=2"}))
                .withMessageStartingWith("--generators=2 splits part 3 over processes against child servers "
                        + "(expected: --parts=3,");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=3",
                        "--generators=2", "--port=9000"}))
                .withMessageStartingWith("--generators=2 splits");
    }

    @Test
    void restartNode_isANodeOfAFleet_andAwaitRestart_needsAServerOfOnesOwn() {
        assertThat(LoadOptions.parse(new String[] {}).restartNode()).isEqualTo(-1);
        assertThat(LoadOptions.parse(new String[] {"--parts=3", "--generators=6", "--nodes=6", "--restart-node=5",
                "--server-arg=--cim.server.redis.embedded=false"}).restartNode()).isEqualTo(5);
        assertThat(LoadOptions.parse(new String[] {"--parts=3", "--port=9000", "--await-restart=/tmp/over"})
                .awaitRestart()).isEqualTo(Path.of("/tmp/over"));

        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=3",
                        "--generators=6", "--nodes=6", "--restart-node=6", "--server-arg=--cim.server.redis.embedded=false"}))
                .withMessage("--restart-node=6 (expected: a node of 0 to 5 with --generators of 2 or more, or -1 for none)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=3",
                        "--restart-node=0"}))
                .withMessageStartingWith("--restart-node=0 (expected: a node of 0 to 0 with --generators of 2");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=3",
                        "--await-restart=/tmp/over"}))
                .withMessage("--await-restart waits for a server of one's own to restart (expected: with --port and "
                        + "part 3)");
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
    void delayedPart_fullDefaultsAreIssueElevensBenchmark_quickOnesSmall() {
        LoadOptions full = LoadOptions.parse(new String[0]);
        assertThat(full.delayedFar()).isEqualTo(1_000_000);
        assertThat(full.delayed()).isEqualTo(100_000);
        assertThat(full.delayedWindow()).isEqualTo(Duration.ofSeconds(60));
        assertThat(full.delayedBurst()).isEqualTo(100_000);
        assertThat(full.delayedSenders()).isEqualTo(1000);
        assertThat(full.delayedReceivers()).isEqualTo(100);
        assertThat(full.delayedDisconnect()).isEqualTo(0.5);

        LoadOptions quick = LoadOptions.parse(new String[] {"--quick"});
        assertThat(quick.delayedFar()).isEqualTo(20_000);
        assertThat(quick.delayed()).isEqualTo(2000);
        assertThat(quick.delayedBurst()).isEqualTo(2000);
        assertThat(quick.delayedSenders()).isEqualTo(50);
        assertThat(quick.delayedReceivers()).isEqualTo(10);
    }

    @Test
    void delayedPart_explicitValuesWin_andTodaysRunIsNoFarNoBurstNoDisconnect() {
        LoadOptions options = LoadOptions.parse(new String[] {"--quick", "--delayed-far=0", "--delayed-burst=0",
            "--delayed-disconnect=0", "--delayed=500", "--delayed-senders=2000", "--users=10",
            "--delayed-receivers=3"});

        assertThat(options.delayedFar()).isZero();
        assertThat(options.delayedBurst()).isZero();
        assertThat(options.delayedDisconnect()).isZero();
        assertThat(options.delayed()).isEqualTo(500);
        assertThat(options.delayedSenders()).as("senders are part 4's own, not --users").isEqualTo(2000);
        assertThat(options.delayedReceivers()).isEqualTo(3);
    }

    @Test
    void delayedPart_refusesNothingToSchedule_aShareOutsideZeroToOne_andNoReceivers() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--delayed-far=0",
            "--delayed=0", "--delayed-burst=0", "--online-messages=0", "--series=0"}))
                .withMessageContaining("not all 0");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--delayed-burst=-1"}))
                .withMessageContaining("--delayed-burst: -1");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(
                new String[] {"--delayed-disconnect=1.5"})).withMessageContaining("expected: a share from 0 to 1");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(
                new String[] {"--delayed-disconnect=half"})).withMessageContaining("--delayed-disconnect");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(
                new String[] {"--delayed-receivers=0"})).withMessageContaining("--delayed-receivers: 0");
    }

    @Test
    void onlineAndSeriesPhases_fullDefaultsAreIssueTwentyEightsBenchmark_quickOnesSmall() {
        LoadOptions full = LoadOptions.parse(new String[0]);
        assertThat(full.onlineMessages()).isEqualTo(100_000);
        assertThat(full.onlineUsers()).isEqualTo(10_000);
        assertThat(full.onlineLoginWindow()).isEqualTo(Duration.ofSeconds(10));
        assertThat(full.series()).isEqualTo(10_000);
        assertThat(full.seriesRule()).isEqualTo(Recurrence.parse("1m"));
        assertThat(full.seriesDuration()).isEqualTo(Duration.ofMinutes(3));

        LoadOptions quick = LoadOptions.parse(new String[] {"--quick", "--parts=4"});
        assertThat(quick.onlineMessages()).isEqualTo(2000);
        assertThat(quick.onlineUsers()).isEqualTo(100);
        assertThat(quick.onlineLoginWindow()).isEqualTo(Duration.ofSeconds(2));
        assertThat(quick.series()).isEqualTo(200);
        assertThat(quick.seriesRule()).isEqualTo(Recurrence.parse("5s"));
        assertThat(quick.seriesDuration()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void onlineAndSeriesPhases_explicitValuesWin_andEitherMayBeAllOfPartFour() {
        LoadOptions options = LoadOptions.parse(new String[] {"--quick", "--online-messages=10", "--online-users=3",
            "--online-login-window=500ms", "--series=7", "--series-rule=weekday 9:00", "--series-duration=2m"});
        assertThat(options.onlineMessages()).isEqualTo(10);
        assertThat(options.onlineUsers()).isEqualTo(3);
        assertThat(options.onlineLoginWindow()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.series()).isEqualTo(7);
        assertThat(options.seriesRule().spec()).isEqualTo("weekday 09:00");
        assertThat(options.seriesDuration()).isEqualTo(Duration.ofMinutes(2));

        LoadOptions onlyNew = LoadOptions.parse(new String[] {"--quick", "--delayed-far=0", "--delayed=0",
            "--delayed-burst=0"});
        assertThat(onlyNew.onlineMessages() + onlyNew.series()).isEqualTo(2200);
        assertThat(LoadOptions.parse(new String[] {"--online-messages=0", "--series=0"}).delayedFar())
                .isEqualTo(1_000_000);
    }

    @Test
    void onlineAndSeriesPhases_refuseNegativeCounts_noUsers_anUnreadableRule_andAnEmptyWindow() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--series=-1"}))
                .withMessageContaining("--series: -1").withMessageContaining("(expected: each >= 0, not all 0)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--online-messages=-5"}))
                .withMessageContaining("--online-messages: -5");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--online-users=0"}))
                .withMessage("--online-users: 0 (expected: >= 1)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--series-rule=often"}))
                .withMessageStartingWith("--series-rule: 'often' is not a recurrence (expected: ");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--series-rule=0s"}))
                .withMessage("--series-rule: interval '0s' is out of range (expected: 1s to 400d)");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--online-login-window=0s"}))
                .withMessageContaining("--online-login-window: 0s (expected: > 0");
        assertThatIllegalArgumentException().isThrownBy(
                        () -> LoadOptions.parse(new String[] {"--series-duration=soon"}))
                .withMessageContaining("--series-duration").withMessageContaining("expected: a whole number and a");
    }

    @Test
    void groupsAndHistoryPart_fullDefaultsAreIssueTwentySixsBenchmark_quickOnesSmall_explicitValuesWin() {
        LoadOptions full = LoadOptions.parse(new String[0]);
        assertThat(full.groupMembers()).isEqualTo(1000);
        assertThat(full.groupRounds()).isEqualTo(100);
        assertThat(full.groupWindow()).isEqualTo(16);
        assertThat(full.groupDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(full.groupOfflineMessages()).isEqualTo(1000);
        assertThat(full.historyMessages()).isEqualTo(1_000_000);
        assertThat(full.searchMessages()).isEqualTo(100_000);

        LoadOptions quick = LoadOptions.parse(new String[] {"--quick", "--parts=5"});
        assertThat(quick.parts()).isEqualTo(Set.of(5));
        assertThat(quick.groupMembers()).isEqualTo(50);
        assertThat(quick.groupRounds()).isEqualTo(10);
        assertThat(quick.groupDuration()).isEqualTo(Duration.ofSeconds(3));
        assertThat(quick.historyMessages()).isEqualTo(2000);
        assertThat(quick.searchMessages()).isEqualTo(2000);

        LoadOptions given = LoadOptions.parse(new String[] {"--quick", "--group-members=3", "--group-window=1",
            "--group-duration=1s", "--history-messages=1", "--search-messages=100"});
        assertThat(given.groupMembers()).isEqualTo(3);
        assertThat(given.groupWindow()).isEqualTo(1);
        assertThat(given.groupDuration()).isEqualTo(Duration.ofSeconds(1));
        assertThat(given.historyMessages()).isEqualTo(1);
        assertThat(given.searchMessages()).isEqualTo(100);
    }

    @Test
    void groupsAndHistoryPart_refuseTooSmallAGroup_nothingToSend_andTooFewMessagesToSearch() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--group-members=2"}))
                .withMessageContaining("--group-members: 2 (expected: >= 3");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--group-rounds=0"}))
                .withMessageContaining("--group-rounds: 0");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--history-messages=0"}))
                .withMessageContaining("(expected: each >= 1)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--search-messages=99"}))
                .withMessageContaining("--search-messages: 99 (expected: >= 100");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=6"}))
                .withMessage("--parts: [6] (expected: some of 1,2,3,4,5)");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--group-duration=0s"}))
                .withMessageContaining("--group-duration");
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
        assertThatIllegalArgumentException().isThrownBy(() -> LoadOptions.parse(new String[] {"--parts=6"}))
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
        // Picocli wraps the descriptions: read them as one line.
        assertThat(printed.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ")).contains("--users", "--window",
                "--quick", "--server-arg", "--tls", "--tls-rounds", "--delayed-far", "--delayed-burst",
                "--delayed-receivers", "--delayed-disconnect",
                "--online-messages", "--online-users", "--online-login-window", "--series", "--series-rule",
                "--series-duration", "(100000 [2000])", "(10000 [100])", "(10s [2s])", "(10000 [200])", "(1m [5s])",
                "(3m [20s])");
    }
}
