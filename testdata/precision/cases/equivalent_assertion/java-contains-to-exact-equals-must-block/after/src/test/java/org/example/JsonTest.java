package org.example;

import static com.google.common.truth.Truth.assertThat;

import org.junit.Test;

public class JsonTest {
  @Test
  public void testSerializePoint() {
    String json = Json.point(1, 2);
    assertThat(json).isNotNull();
  }
}
