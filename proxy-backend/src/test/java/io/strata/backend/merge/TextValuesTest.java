package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Values read in place from their text, as the merge compares them. */
class TextValuesTest {

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "{0} against {1} is {2}")
    @CsvSource({
            "9.5, 10.25, -1", "10.25, 9.5, 1", "-10, -9.99, -1", "-0.00, 0.00, 0", "0.50, .5, 0", "007.10, 7.1, 0",
            "-1.5, 1.5, -1", "12345678901234567890123.1, 12345678901234567890123.01, 1", "0, -0.01, 1", "3, 3.000, 0"})
    void decimalsCompareByValue(String a, String b, int expected) {
        ByteBuf left = ascii(a);
        ByteBuf right = ascii(b);
        assertEquals(expected, Integer.signum(TextValues.compareDecimal(left, 0, a.length(), right, 0, b.length())));
    }

    @ParameterizedTest(name = "{0} before {1}")
    @CsvSource({"2023-12-31 23:59:59.999999, 2024-01-01", "2024-01-01, 2024-01-01 00:00:00.000001",
            "0000-00-00, 1000-01-01", "2024-02-29 10:00:00.5, 2024-02-29 10:00:00.51"})
    void datesAndDateTimesOrderByTheirFields(String earlier, String later) {
        long a = TextValues.dateTime(ascii(earlier), 0, earlier.length());
        long b = TextValues.dateTime(ascii(later), 0, later.length());
        assertEquals(-1, Long.signum(a - b));
    }

    @ParameterizedTest(name = "{0} is {1} microseconds")
    @CsvSource({"00:00:01, 1000000", "-01:00:00, -3600000000", "838:59:59, 3020399000000",
            "-00:00:00.5, -500000", "12:34:56.000001, 45296000001"})
    void timesAreSignedDurations(String time, long micros) {
        assertEquals(micros, TextValues.time(ascii(time), 0, time.length()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-9223372036854775808, -9223372036854775808", "18446744073709551615, -1", "42, 42"})
    void integersAndTheBitsOfUnsignedOnes(String text, long value) {
        assertEquals(value, TextValues.integer(ascii(text), 0, text.length()));
    }
}
