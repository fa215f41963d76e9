package x;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ErrorHandlerTest {
  @Test
  void noMatch() {
    Registry r = new Registry();
    assertThrows(NullPointerException.class, () -> r.register(null, x -> "x"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.register(999, x -> "x"));
    assertTrue(e.getMessage().contains("Use a subclass of HttpException"));
    assertEquals("custom", r.handle(500));
  }
}
