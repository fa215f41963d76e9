package org.example;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import org.junit.Test;

public class ManifestTest {
    @Test
    public void testImports() {
        assertThat(Manifest.imports()).hasSize(2);
        assertThat(Manifest.imports().get(0)).isEqualTo("sun.misc;resolution:=optional");
    }
}
