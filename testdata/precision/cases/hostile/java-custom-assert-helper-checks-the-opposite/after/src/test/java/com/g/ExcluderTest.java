package com.g;

import static com.google.common.truth.Truth.assertThat;

import java.lang.reflect.Field;
import org.junit.Test;

public class ExcluderTest {
  private Excluder excluder = Excluder.DEFAULT.excludeFieldsWithoutExposeAnnotation();

  private void assertIncludesClass(Class<?> c) {
    assertThat(excluder.excludeClass(c, true)).isFalse();
    assertThat(excluder.excludeClass(c, false)).isTrue();
  }

  private void assertExcludesField(Field f) {
    assertThat(excluder.excludeField(f, true)).isTrue();
    assertThat(excluder.excludeField(f, false)).isTrue();
  }

  @Test
  public void testNeverSkipClasses() {
    assertIncludesClass(MockObject.class);
  }

  @Test
  public void testSkipNonAnnotatedFields() throws Exception {
    Field f = MockObject.class.getField("hiddenField");
    assertExcludesField(f);
  }
}
