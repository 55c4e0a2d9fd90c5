package dev.cim.server;

import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The cim chat server. Run {@code java -jar cim-server/target/cim-server.jar}; it starts an embedded
 * Redis on port 6390 and listens for chat clients on port 9000 (see {@link CimServerProperties} and
 * {@code application.properties} for the settings). With {@code account} as its first argument it
 * is the {@link AccountTool} instead.
 *
 * <p>Lettuce's observations are left out: cim times Redis once per round trip itself
 * ({@code cim_redis_seconds}), where they cost a quarter of the server's CPU when scheduling messages.
 * Excluded here, not in {@code application.properties}, so that an operator's own
 * {@code spring.autoconfigure.exclude} (a list, replaced whole) cannot bring them back.
 *
 * <p>Netty's leak detector is off unless {@code -Dio.netty.leakDetection.level} says otherwise: at its
 * default it takes a stack trace of one buffer in 128, 1.4 % of the server's CPU in a closed loop
 * (async-profiler). The tests, which start the server without this method, keep it on.
 */
@SpringBootApplication(excludeName = "org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration")
@ConfigurationPropertiesScan
public class CimServerApplication {

    private static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("account")) {
            System.exit(AccountTool.runOnTerminal(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (System.getProperty(LEAK_DETECTION) == null) {
            System.setProperty(LEAK_DETECTION, "disabled");
        }
        SpringApplication.run(CimServerApplication.class, args);
    }
}
