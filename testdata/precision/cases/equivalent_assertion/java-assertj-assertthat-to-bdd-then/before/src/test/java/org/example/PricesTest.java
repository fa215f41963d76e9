package org.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PricesTest {
    @Test
    void testTotal() {
        assertThat(Prices.total(150, 250)).isEqualTo(400);
        assertThatThrownBy(() -> Prices.total(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
