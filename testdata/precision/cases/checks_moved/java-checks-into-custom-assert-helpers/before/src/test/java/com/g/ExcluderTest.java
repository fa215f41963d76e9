package com.g;

import static com.google.common.truth.Truth.assertThat;

import java.lang.reflect.Field;
import org.junit.Test;

public class ExcluderTest {
  private Excluder excluder = Excluder.DEFAULT.excludeFieldsWithoutExposeAnnotation();

  @Test
  public void testNeverSkipClasses() {
    assertThat(excluder.excludeClass(MockObject.class, true)).isFalse();
    assertThat(excluder.excludeClass(MockObject.class, false)).isFalse();
  }

  @Test
  public void testSkipNonAnnotatedFields() throws Exception {
    Field f = MockObject.class.getField("hiddenField");
    assertThat(excluder.excludeField(f, true)).isTrue();
    assertThat(excluder.excludeField(f, false)).isTrue();
  }
}
