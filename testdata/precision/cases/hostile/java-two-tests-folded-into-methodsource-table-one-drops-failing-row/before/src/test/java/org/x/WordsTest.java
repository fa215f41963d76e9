package org.x;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WordsTest {

    @Test
    void testWrap_StringIntBooleanString() {
        String input = "flammable/inflammable";
        assertEquals("flammable/inflammable", Words.wrap(input, 30, false, "/"));
        assertEquals("flammable\ninflammable", Words.wrap(input, 2, false, "/"));
        assertEquals("flammable\ninflammab\nle", Words.wrap(input, 9, true, "/"));
    }

    @Test
    void testWrapNull() {
        assertEquals(null, Words.wrap(null, -1, false, "/"));
    }
}
