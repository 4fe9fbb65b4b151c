import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.KmxException;
import io.kmx.Library;
import io.kmx.Param;
import io.kmx.ParamBounds;
import io.kmx.Status;
import org.junit.Test;

/** Version, status names, the last error and parameter metadata. */
public class LibraryTest {
    @Test
    public void paramsAreEveryParameterOnceByName() {
        Param[] params = Library.params();
        assertTrue(params.length > 20);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Param p : params) {
            assertTrue(names.add(Library.paramName(p)));
            assertSame(p, Library.paramFromName(Library.paramName(p)));
        }
        assertTrue(names.contains("gamma"));
    }

    @Test
    public void versionMatchesTheHeader() {
        assertEquals(Library.HEADER_VERSION, Library.version());
        String[] parts = Library.version().split("\\.");
        int expected = Integer.parseInt(parts[0]) * 10000 + Integer.parseInt(parts[1]) * 100
                + Integer.parseInt(parts[2]);
        assertEquals(expected, Library.versionNumber());
    }

    @Test
    public void manifestNamesTheVersionAndTheModule() throws java.io.IOException {
        java.net.URL jar = Library.class.getProtectionDomain().getCodeSource().getLocation();
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.getPath())) {
            java.util.jar.Attributes main = file.getManifest().getMainAttributes();
            assertEquals(Library.version(), main.getValue("Implementation-Version"));
            assertEquals("io.kmx", main.getValue("Automatic-Module-Name"));
        }
        assertEquals(Library.version(), Library.class.getPackage().getImplementationVersion());
    }

    @Test
    public void statusNames() {
        assertEquals("KMX_OK", Library.statusName(Status.OK));
        assertEquals("KMX_E_INVALID_ARGUMENT", Library.statusName(Status.INVALID_ARGUMENT));
        for (Status status : Status.values()) {
            assertEquals("KMX_" + (status == Status.OK ? "" : "E_") + status, Library.statusName(status));
        }
    }

    @Test
    public void lastErrorHoldsTheMessageOfTheFailedCall() {
        KmxException e = assertThrows(KmxException.class, () -> Library.paramCheck(Param.GAMMA, -1));
        assertEquals(e.detail(), Library.lastError());
        Library.clearError();
        assertEquals("", Library.lastError());
    }

    @Test
    public void exceptionCarriesStatusCodeAndMessage() {
        KmxException e = assertThrows(KmxException.class, () -> Library.paramCheck(Param.GAMMA, -1));
        assertSame(Status.INVALID_ARGUMENT, e.status());
        assertEquals("KMX_E_INVALID_ARGUMENT", e.statusName());
        assertEquals(1, e.code()); // KMX_E_INVALID_ARGUMENT in kmx.h
        assertTrue(e.detail(), e.detail().contains("gamma"));
        assertEquals("KMX_E_INVALID_ARGUMENT: " + e.detail(), e.getMessage());
    }

    @Test
    public void paramBounds() {
        ParamBounds threads = Library.paramBounds(Param.THREADS);
        assertEquals(0, threads.lower(), 0);
        assertEquals(1024, threads.upper(), 0);
        assertTrue(threads.isInteger());
        assertFalse(threads.isLowerOpen());
        ParamBounds gamma = Library.paramBounds(Param.GAMMA);
        assertTrue(gamma.isLowerOpen());
        assertFalse(gamma.isInteger());
        assertTrue(Library.paramBounds(Param.KERNEL).isEnum());
        ParamBounds tol = Library.paramBounds(Param.KMEANS_TOL);
        assertTrue(tol.isUpperOpen());
        assertEquals(1, tol.upper(), 0);
    }

    @Test
    public void paramFactsComeFromTheLibrarysTable() {
        assertEquals(1e-6, Library.paramDefault(Param.LAMBDA), 0.0);
        assertEquals("rbf", Library.paramValueName(Param.KERNEL, 0));
        assertEquals("falkon", Library.paramValueName(Param.METHOD, 7));
        assertEquals(null, Library.paramValueName(Param.GAMMA, 0));
        assertTrue(Library.paramDescription(Param.C).contains("cost"));
    }

    @Test
    public void paramNamesRoundTrip() {
        assertEquals("gamma", Library.paramName(Param.GAMMA));
        for (Param param : Param.values()) {
            assertSame(param, Library.paramFromName(Library.paramName(param)));
        }
        KmxException e = assertThrows(KmxException.class, () -> Library.paramFromName("no_such_param"));
        assertSame(Status.INVALID_ARGUMENT, e.status());
    }

    @Test
    public void paramCheck() {
        Library.paramCheck(Param.GAMMA, 0.5);
        Library.paramCheck(Param.THREADS, 4);
        assertThrows(KmxException.class, () -> Library.paramCheck(Param.THREADS, 2.5));
        assertThrows(KmxException.class, () -> Library.paramCheck(Param.DEGREE, 0));
    }

    @Test
    public void machineAsKmxSeesIt() {
        assertEquals(Runtime.getRuntime().availableProcessors(), Library.cores());
        long available = Library.memoryAvailable();
        assertTrue(available > (1L << 20));
        long budget = Library.defaultMemoryBudget();
        assertTrue(budget + " vs " + available, Math.abs(budget - 0.8 * available) < 0.1 * available);
        assertTrue(java.util.Arrays.asList("skx", "knl", "zen3", "zen2", "zen", "haswell", "sandybridge",
                "penryn", "excavator", "steamroller", "piledriver", "bulldozer", "generic")
                .contains(Library.kernelSet()));
        assertTrue(Library.kernelSetOrigin(), Library.kernelSetOrigin().startsWith("cpu features")
                || Library.kernelSetOrigin().equals("BLIS_ARCH_TYPE"));
        assertTrue(Library.dgemmGflops() > 0.1);
    }
}
