package com.g;

import static com.google.common.truth.Truth.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class ListTest {
  @Test
  public void testAddAll() {
    List<Integer> list = Lists.of(1, 2, 3);
    List<Integer> expectedList = Arrays.asList(1, 2, 3);
    assertThat(list).isEqualTo(expectedList);

    list.addAll(Arrays.asList(4));
    assertThat(list).hasSize(4);
  }
}
