import com.sun.tools.attach.VirtualMachine;

/**
 * Gives async-profiler a command inside a running JVM: loads its agent library with that command as the agent's
 * options (the first load starts the agent, later ones talk to it). Run by bench/profile.sh with the java launcher:
 * {@code java AsyncProfilerAttach.java <pid> <libasyncProfiler.so> <command>}. The JDK's attach API passes the
 * command whole, where {@code jcmd JVMTI.agent_load} would parse its "name=value" parts as its own options.
 */
public class AsyncProfilerAttach {

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java AsyncProfilerAttach.java <pid> <libasyncProfiler.so> <command>");
            System.exit(2);
        }
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
