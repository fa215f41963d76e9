package org.example;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import org.junit.Test;

public class ManifestTest {
    @Test
    public void testImports() {
        assertWithMessage("Import-Package holds two packages").that(Manifest.imports()).hasSize(2);
        assertWithMessage("sun.misc import is optional").that(Manifest.imports().get(0)).isEqualTo("sun.misc;resolution:=optional");
    }
}
