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
}
