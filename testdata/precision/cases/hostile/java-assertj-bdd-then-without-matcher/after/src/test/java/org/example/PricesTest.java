package org.example;

import static org.assertj.core.api.BDDAssertions.then;
import static org.assertj.core.api.BDDAssertions.thenThrownBy;

import org.junit.jupiter.api.Test;

class PricesTest {
    @Test
    void testTotal() {
        then(Prices.total(150, 250));
        thenThrownBy(() -> Prices.total(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
