package x;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class GetTest {
  @Test
  void get() {
    Resp r = Client.get("/");
    assertNotNull(r);
    assertInstanceOf(Resp.class, r);
    assertEquals(200, r.status());
  }
}
