package io.strata.config;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/** Writes YAML the way users do and checks that a bad file fails with a message a user can act on. */
final class ConfigFiles {

    private ConfigFiles() {
    }

    static Path write(Path dir, String fileName, String yaml) {
        try {
            return Files.writeString(dir.resolve(fileName), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads {@code yaml} from {@code dir/fileName} and expects a message naming the file, the key and the expectation. */
    static ConfigException assertRejected(Path dir, String fileName, String yaml, Function<Path, ?> loader,
                                          String key, String expected) {
        Path file = write(dir, fileName, yaml);
        ConfigException error = assertThrows(ConfigException.class, () -> loader.apply(file));
        assertMentions(error, file.toString(), key, expected);
        return error;
    }

    static void assertMentions(ConfigException error, String... parts) {
        for (String part : parts) {
            assertTrue(error.getMessage().contains(part), () -> "'" + part + "' not in: " + error.getMessage());
        }
    }
}
