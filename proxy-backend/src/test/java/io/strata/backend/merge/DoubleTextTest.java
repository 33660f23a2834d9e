package io.strata.backend.merge;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** DOUBLE values as MariaDB 10.11 printed them in text rows ({@code SELECT 1e15, ...}: decimals 31). */
class DoubleTextTest {

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
            "1e20, 1e20",
            "1e15, 1e15",
            "1e14, 100000000000000",
            "123456789012345, 123456789012345",
            "1234567890123456, 1.234567890123456e15",
            "123456789012345678, 1.2345678901234568e17",
            "1000000000000000.5, 1000000000000000.5",
            "0.0001, 0.0001",
            "1e-5, 0.00001",
            "-1.5e-7, -0.00000015",
            "1e-15, 0.000000000000001",
            "1.25e-15, 0.00000000000000125",
            "1e-16, 1e-16",
            "1.5e-16, 1.5e-16",
            "1e-20, 1e-20",
            "1e300, 1e300",
            "-1.7976931348623157e308, -1.7976931348623157e308",
            "5e-324, 5e-324",
            "0.30000000000000004, 0.30000000000000004",
            "3.3000000000000003, 3.3000000000000003",
            "2.5, 2.5",
            "0, 0",
            "-0.0, -0",
    })
    void aDoubleWithoutFixedDecimalsPrintsAsTheServerPrintsIt(double value, String text) {
        assertEquals(text, DoubleText.format(value, 31));
    }

    @ParameterizedTest(name = "{0} at {1} decimals prints as {2}")
    @CsvSource({"1.5, 2, 1.50", "2.675, 2, 2.67", "-0.125, 1, -0.1", "12345.678, 0, 12346"})
    void aDoubleWithFixedDecimalsIsRoundedToThem(double value, int decimals, String text) {
        assertEquals(text, DoubleText.format(value, decimals));
    }
}
