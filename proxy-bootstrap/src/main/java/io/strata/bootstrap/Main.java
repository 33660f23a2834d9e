package io.strata.bootstrap;

import io.strata.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** The command line: {@code Main [-c confDir] [-p port]}, as bin/start.sh runs it. */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path confDir = Path.of("conf");
        Integer port = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-c" -> confDir = Path.of(value(args, ++i, "-c"));
                case "-p" -> port = parsePort(value(args, ++i, "-p"));
                default -> usage("unknown option " + args[i]);
            }
        }
        Strata.Builder builder = Strata.builder().confDir(confDir);
        if (port != null) {
            builder.port(port);
        }
        Strata strata;
        try {
            strata = builder.start();
        } catch (ConfigException e) {
            System.err.println("Strata cannot start: " + e.getMessage());
            LOG.error("Strata cannot start: {}", e.getMessage());
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            System.err.println("Strata cannot start: " + e);
            LOG.error("Strata cannot start", e);
            System.exit(1);
            return;
        }
        reloadOnHangUp(strata);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            strata.stop(); // SIGTERM (bin/stop.sh): running statements and open transactions may finish
            stopped.countDown();
        }, "strata-shutdown"));
        stopped.await();
    }

    /**
     * SIGHUP (bin/reload.sh) reloads the configuration, as HAProxy and nginx do; the outcome is in the log (a
     * refused configuration leaves the running one). sun.misc.Signal is the JDK's only way to catch a signal.
     */
    private static void reloadOnHangUp(Strata strata) {
        try {
            sun.misc.SignalHandler before = sun.misc.Signal.handle(new sun.misc.Signal("HUP"),
                    signal -> strata.reload("SIGHUP").exceptionally(refused -> null));
            if (before == sun.misc.SignalHandler.SIG_IGN) {
                LOG.warn("SIGHUP was ignored when Strata started (under nohup?), so bin/reload.sh may not reach it; "
                        + "reload with RELOAD STRATA CONFIG or server.watchConfig, or start it with bin/start.sh");
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("SIGHUP cannot be caught here ({}): reload with RELOAD STRATA CONFIG", e.getMessage());
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            usage(option + " needs a value");
        }
        return args[index];
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // fall through to the usage message
        }
        usage("-p expects a port number 0-65535, got '" + text + "'");
        return -1;
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: Main [-c confDir] [-p port]");
        System.exit(2);
    }
}
