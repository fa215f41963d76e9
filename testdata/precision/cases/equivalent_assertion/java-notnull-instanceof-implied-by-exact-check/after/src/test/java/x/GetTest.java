package x;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class GetTest {
  @Test
  void get() {
    Resp r = Client.get("/");
    assertEquals(200, r.status());
  }
}
