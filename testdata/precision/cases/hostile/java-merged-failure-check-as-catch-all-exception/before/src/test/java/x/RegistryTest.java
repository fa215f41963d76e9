package x;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class RegistryTest {
  @Test
  void registersHandler() {
    Registry r = new Registry();
    r.register(404, e -> "nf");
    assertEquals("nf", r.handle(404));
  }

  @Test
  void rejectsUnknownCode() {
    Registry r = new Registry();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.register(999, x -> "x"));
    assertTrue(e.getMessage().contains("Use a subclass of HttpException"));
  }
}
