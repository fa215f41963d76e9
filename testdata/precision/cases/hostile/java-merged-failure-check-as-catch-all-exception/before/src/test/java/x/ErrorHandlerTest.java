package x;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ErrorHandlerTest {
  @Test
  void noMatch() {
    Registry r = new Registry();
    assertThrows(NullPointerException.class, () -> r.register(null, x -> "x"));
    assertEquals("custom", r.handle(500));
  }
}
