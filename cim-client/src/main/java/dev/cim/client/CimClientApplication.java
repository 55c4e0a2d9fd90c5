package dev.cim.client;

import dev.cim.common.Failures;
import dev.cim.common.autoconfigure.CimWheelAutoConfiguration;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * The cim console client: {@code bin/cim --cim.user.name=alice} (it asks for the password), or
 * {@code java -jar cim-client.jar --cim.user.name=alice}. Logs go to a file (see
 * {@code application.properties}), so the console shows only the chat.
 *
 * <p>A Spring Boot application with exactly the parts it needs, named rather than scanned for: its
 * own configuration and the delay wheel's, so that it starts quickly.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@Import(ClientConfiguration.class)
@ImportAutoConfiguration(CimWheelAutoConfiguration.class)
public class CimClientApplication {

    public static void main(String[] args) throws InterruptedException {
        // Netty's buffer allocator emits Flight Recorder events when JFR is available, which loads
        // about a hundred jdk.jfr classes at the first connection whether or not a recording runs.
        // A chat client records nothing: off unless asked for (-Dio.netty.jfr.enabled=true).
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        SpringApplication application = new SpringApplication(CimClientApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        ConfigurableApplicationContext context;
        try {
            context = application.run(args);
        } catch (SpringApplication.AbandonedRunException processingAhead) {
            throw processingAhead; // the build's ahead-of-time processing stops the run here
        } catch (RuntimeException failed) {
            System.err.println("cim-client: " + Failures.rootMessage(failed));
            System.exit(2);
            return;
        }
        int code = context.getBean(ChatSession.class).run(() -> exit(context, 1));
        exit(context, code);
    }

    /** Closes the context (draining the wheel, closing the connection) and ends the process. */
    private static void exit(ConfigurableApplicationContext context, int code) {
        // A thread of its own: the caller may be a Netty thread that the shutdown waits for.
        Thread exit = new Thread(() -> System.exit(SpringApplication.exit(context, () -> code)), "cim-client-exit");
        exit.start();
    }
}
