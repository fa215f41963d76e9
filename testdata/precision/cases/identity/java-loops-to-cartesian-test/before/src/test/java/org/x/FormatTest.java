package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;

import org.junit.jupiter.api.Test;

class FormatTest {

    private void checkFormat(final String pattern, final Object value, final Locale locale) {
        assertEquals(Format.expected(pattern, value, locale), Format.format(pattern, value, locale));
    }

    private void checkFormat(final String pattern, final Object value, final Locale[] locales) {
        checkFormat(pattern, value, (Locale) null);
        for (final Locale locale : locales) {
            checkFormat(pattern, value, locale);
        }
    }

    @Test
    void testBuiltInChoiceFormat() {
        final Object[] values = new Number[] {Integer.valueOf(1), Double.valueOf("2.2"), Double.valueOf("1234.5")};
        final Locale[] locales = Locale.getAvailableLocales();
        for (final Object value : values) {
            checkFormat("{0,choice,1#One|2#Two|3#Many {0,number}}", value, locales);
        }
    }

    @Test
    void testBuiltInNumberFormat() {
        final Locale[] locales = Locale.getAvailableLocales();
        checkFormat("1: {0,number}", 42, locales);
        checkFormat("2: {0,number,integer}", 42, locales);
        checkFormat("3: {0,number,percent}", 42, locales);
    }
}
