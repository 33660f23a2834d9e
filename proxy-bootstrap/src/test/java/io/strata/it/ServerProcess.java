package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;

import java.io.IOException;

/**
 * The operating-system process of an embedded MariaDB, for the faults a test cannot ask the server for: SIGKILL (a
 * crash), SIGSTOP (a server that keeps its port open and never answers, as behind a network black hole) and SIGCONT.
 */
record ServerProcess(ProcessHandle handle) {

    /** The mariadbd / mysqld listening on the server's port (found by its command line). */
    static ServerProcess of(EmbeddedMariaDb server) {
        String port = "--port=" + server.port();
        return new ServerProcess(ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(line -> line.contains(port)
                        && (line.contains("mariadbd") || line.contains("mysqld"))).orElse(false))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no server process with " + port)));
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill() {
        handle.destroyForcibly();
        handle.onExit().join();
    }

    void freeze() {
        signal("STOP");
    }

    void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            int exit = new ProcessBuilder("kill", "-" + name, Long.toString(handle.pid())).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill -" + name + " " + handle.pid() + " exited with " + exit);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
