package org.example;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BagTest {
    @Test
    void testRawBag() {
        Map<String, Object> values = Bags.parse("{\"a\":10.0,\"b\":20.0,\"c\":false,\"d\":\"stringValue\"}");
        assertThat(values.containsValue(10.0)).isTrue();
        assertThat(values.containsValue(20.0)).isTrue();
        assertThat(values.containsValue("stringValue")).isTrue();
    }
}
