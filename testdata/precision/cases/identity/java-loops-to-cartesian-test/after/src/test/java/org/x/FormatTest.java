package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;

import org.junitpioneer.jupiter.cartesian.ArgumentSets;
import org.junitpioneer.jupiter.cartesian.CartesianTest;

class FormatTest {

    static ArgumentSets testBuiltInChoiceFormatFactory() {
        return ArgumentSets
                .argumentsForFirstParameter(Integer.valueOf(1), Double.valueOf("2.2"), Double.valueOf("1234.5"))
                .argumentsForNextParameter(Locale.getAvailableLocales());
    }

    static ArgumentSets testBuiltInNumberFormatFactory() {
        return ArgumentSets
                .argumentsForFirstParameter("1: {0,number}", "2: {0,number,integer}", "3: {0,number,percent}")
                .argumentsForNextParameter(Locale.getAvailableLocales());
    }

    private void checkFormat(final String pattern, final Object value, final Locale locale) {
        assertEquals(Format.expected(pattern, value, locale), Format.format(pattern, value, locale));
    }

    @CartesianTest
    @CartesianTest.MethodFactory("testBuiltInChoiceFormatFactory")
    void testBuiltInChoiceFormat(final Object value, final Locale locale) {
        checkFormat("{0,choice,1#One|2#Two|3#Many {0,number}}", value, (Locale) null);
        checkFormat("{0,choice,1#One|2#Two|3#Many {0,number}}", value, locale);
    }

    @CartesianTest
    @CartesianTest.MethodFactory("testBuiltInNumberFormatFactory")
    void testBuiltInNumberFormat(final String pattern, final Locale locale) {
        checkFormat(pattern, 42, (Locale) null);
        checkFormat(pattern, 42, locale);
    }
}
