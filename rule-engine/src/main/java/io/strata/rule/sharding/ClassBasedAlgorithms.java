package io.strata.rule.sharding;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CLASS_BASED: loads {@code algorithmClassName} from the class path (the proxy's {@code lib/}), checks that it
 * implements the interface of its {@code strategy} (STANDARD: {@link StandardShardingAlgorithm}, COMPLEX:
 * {@link ComplexShardingAlgorithm}, HINT: {@link HintShardingAlgorithm}), makes one instance and hands it the other
 * props. Every failure stops the start naming the prop.
 */
final class ClassBasedAlgorithms {

    static final String TYPE = "CLASS_BASED";
    private static final Map<String, Class<? extends ShardingAlgorithm>> STRATEGIES = Map.of(
            "STANDARD", StandardShardingAlgorithm.class, "COMPLEX", ComplexShardingAlgorithm.class,
            "HINT", HintShardingAlgorithm.class);

    private ClassBasedAlgorithms() {
    }

    static ShardingAlgorithm read(AlgorithmProps props) {
        String strategy = props.string("strategy", "STANDARD, COMPLEX or HINT").toUpperCase(Locale.ROOT);
        Class<? extends ShardingAlgorithm> wanted = STRATEGIES.get(strategy);
        if (wanted == null) {
            throw props.error("strategy", "STANDARD, COMPLEX or HINT", strategy);
        }
        String className = props.string("algorithmClassName", "the name of a class implementing "
                + wanted.getName());
        Class<?> type = load(props, className);
        if (!wanted.isAssignableFrom(type)) {
            throw props.error("algorithmClassName", "a class implementing " + wanted.getName()
                    + " (strategy " + strategy + ")", className);
        }
        ShardingAlgorithm algorithm = instantiate(props, type.asSubclass(ShardingAlgorithm.class));
        try {
            algorithm.init(props.asText(List.of("strategy", "algorithmClassName")));
        } catch (RuntimeException e) {
            throw props.error("algorithmClassName", "props that " + className + ".init accepts (it says: "
                    + e.getMessage() + ")", className, e);
        }
        return algorithm;
    }

    private static Class<?> load(AlgorithmProps props, String className) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = context != null ? context : ClassBasedAlgorithms.class.getClassLoader();
        try {
            return Class.forName(className, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw props.error("algorithmClassName", "a class on the class path (its jar in the proxy's lib/)",
                    className, e);
        }
    }

    private static ShardingAlgorithm instantiate(AlgorithmProps props, Class<? extends ShardingAlgorithm> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw props.error("algorithmClassName", "a public class with a public constructor without arguments",
                    type.getName(), e);
        } catch (InstantiationException | InvocationTargetException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw props.error("algorithmClassName", "a class whose constructor works (it threw " + cause + ")",
                    type.getName(), e);
        }
    }
}
