import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Bias;
import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KernelType;
import io.kmx.KmxException;
import io.kmx.Library;
import io.kmx.Method;
import io.kmx.Model;
import io.kmx.Param;
import io.kmx.ParamBounds;
import io.kmx.ParamValue;
import io.kmx.Solver;
import java.io.File;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * Issue 20's Java conventions, checked over the public classes kmx.jar holds in package io.kmx
 * (the hand-written ones and SWIG's enums alike).
 *
 * <p>The naming rule (record style, as java.lang.Record and the JDK's newer classes): an accessor
 * is named for what it returns, {@code labels()}, {@code rows()}, {@code param(Param)}, and no public
 * method is named {@code getX}; one returning boolean is a predicate {@code isX()}/{@code hasX()},
 * and only those are. Enum-valued parameters are passed and read as enums: no public method of the
 * package exposes SWIG's numbers ({@code swigValue()}, {@code swigToEnum(int)}).
 */
public class ConventionsTest {
    private static final Pattern GETTER = Pattern.compile("get[A-Z].*");
    private static final Pattern PREDICATE = Pattern.compile("(is|has)[A-Z].*");

    /** The public classes of package io.kmx in the jar that holds Library, nested ones included. */
    static List<Class<?>> publicClasses() throws Exception {
        File jar = new File(Library.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (!name.startsWith("io/kmx/") || !name.endsWith(".class") || name.indexOf('/', 7) >= 0) continue;
                String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                Class<?> c = Class.forName(className, false, ConventionsTest.class.getClassLoader());
                if (isVisible(c)) classes.add(c);
            }
        }
        return classes;
    }

    private static boolean isVisible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass() || k.isLocalClass()) return false;
        }
        return true;
    }

    /** The public methods a user of c sees that io.kmx declares (not Object's, Enum's, Throwable's...). */
    private static List<java.lang.reflect.Method> ownPublicMethods(Class<?> c) {
        List<java.lang.reflect.Method> methods = new ArrayList<>();
        for (java.lang.reflect.Method m : c.getMethods()) {
            if (m.isSynthetic() || m.isBridge()) continue;
            if (m.getDeclaringClass().getPackageName().equals("io.kmx")) methods.add(m);
        }
        return methods;
    }

    @Test
    public void oneNamingSchemeAcrossThePublicApi() throws Exception {
        List<Class<?>> classes = publicClasses();
        Set<String> names = new HashSet<>();
        for (Class<?> c : classes) names.add(c.getName());
        // The scan sees the classes a user does: not vacuous, and not the SWIG plumbing.
        for (String expected : new String[] {"io.kmx.Model", "io.kmx.Dataset", "io.kmx.Dataset$Classes",
                                             "io.kmx.Method", "io.kmx.ParamBounds", "io.kmx.KmxException"}) {
            assertTrue(expected + " in " + names, names.contains(expected));
        }
        assertFalse(names.contains("io.kmx.kmx"));
        assertFalse(names.contains("io.kmx.kmxJNI"));

        List<String> violations = new ArrayList<>();
        int accessors = 0;
        for (Class<?> c : classes) {
            for (java.lang.reflect.Method m : ownPublicMethods(c)) {
                String where = c.getSimpleName() + "." + m.getName() + Arrays.toString(m.getParameterTypes());
                boolean accessor = m.getParameterCount() == 0 && m.getReturnType() != void.class;
                boolean bool = m.getReturnType() == boolean.class;
                if (accessor) accessors++;
                if (GETTER.matcher(m.getName()).matches()) violations.add(where + ": a getX name");
                if (accessor && bool && !PREDICATE.matcher(m.getName()).matches()) {
                    violations.add(where + ": a boolean accessor not named isX/hasX");
                }
                if (PREDICATE.matcher(m.getName()).matches() && !bool) {
                    violations.add(where + ": isX/hasX returning " + m.getReturnType().getSimpleName());
                }
                if (m.getName().startsWith("swig")) violations.add(where + ": SWIG's enum numbers are public");
            }
        }
        assertTrue("accessors checked: " + accessors, accessors > 60);
        assertEquals("naming violations", Collections.emptyList(), violations);
    }

    @Test
    public void theRenamedAccessorsAreThere() throws Exception {
        // The record-style names replace Dataset.getLabels/getRows, getParam and ParamBounds' booleans.
        Dataset.class.getMethod("labels");
        Dataset.class.getMethod("rowValues", long.class, long.class);
        Solver.class.getMethod("param", Param.class);
        Context.class.getMethod("param", Param.class);
        Kernel.class.getMethod("param", Param.class);
        ParamBounds.class.getMethod("isLowerOpen");
        ParamBounds.class.getMethod("isEnum");
        assertThrows(NoSuchMethodException.class, () -> Dataset.class.getMethod("getLabels"));
        assertThrows(NoSuchMethodException.class, () -> Solver.class.getMethod("getParam", Param.class));
    }

    @Test
    public void everyEnumParameterHasItsEnumType() {
        Set<Class<?>> types = new HashSet<>();
        for (Param param : Library.params()) {
            Class<? extends ParamValue> type = Library.paramValueType(param);
            // C's metadata and the binding's table agree on which parameters are enums.
            assertEquals(param.toString(), Library.paramBounds(param).isEnum(), type != null);
            if (type == null) continue;
            assertTrue(type.isEnum());
            types.add(type);
            for (ParamValue value : type.getEnumConstants()) {
                String name = Library.paramValueName(param, value);
                if (value == KernelType.CALLBACK) {
                    // What a kernel made by Kernel.createCallback reports; no kernel is set to it by name or value.
                    assertNull(name);
                    continue;
                }
                assertNotNull(param + " " + value, name);
            }
        }
        // ParamValue is sealed to exactly those types.
        assertTrue(ParamValue.class.isSealed());
        assertEquals(types, new HashSet<>(Arrays.asList(ParamValue.class.getPermittedSubclasses())));
    }

    /** Sets every value of every enum parameter an object owns, and reads it back as that enum. */
    private static <T extends AutoCloseable> int roundTrip(T owner, BiConsumer<T, Param> probe,
                                                           TypedSetter<T> set, TypedGetter<T> get) {
        int done = 0;
        for (Param param : Library.params()) {
            Class<? extends ParamValue> type = Library.paramValueType(param);
            if (type == null) continue;
            try {
                probe.accept(owner, param);
            } catch (KmxException notOwned) {
                continue; // another object's parameter
            }
            for (ParamValue value : type.getEnumConstants()) {
                if (value == KernelType.CALLBACK) continue; // only Kernel.createCallback makes one
                set.set(owner, param, value);
                assertSame(param + " " + value, value, get.get(owner, param, type));
                done++;
            }
        }
        return done;
    }

    interface TypedSetter<T> {
        void set(T owner, Param param, ParamValue value);
    }

    interface TypedGetter<T> {
        Object get(T owner, Param param, Class<? extends ParamValue> type);
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void enumParametersRoundTripAsEnums() throws Exception {
        int values = 0;
        try (Context ctx = Context.create()) {
            int n = roundTrip(ctx, Context::param, Context::setParam,
                    (owner, param, type) -> owner.param(param, (Class) type));
            assertTrue("context enum values " + n, n >= 2); // LOG_LEVEL and PRECISION
            values += n;
        }
        try (Kernel kernel = Kernel.create(KernelType.RBF)) {
            int n = roundTrip(kernel, Kernel::param, Kernel::setParam,
                    (owner, param, type) -> owner.param(param, (Class) type));
            assertEquals(KernelType.values().length - 1, n); // all but CALLBACK
            values += n;
        }
        try (Solver solver = Solver.create(Method.SVM)) {
            int n = roundTrip(solver, Solver::param, Solver::setParam,
                    (owner, param, type) -> owner.param(param, (Class) type));
            assertTrue("solver enum values " + n, n >= Method.values().length + Bias.values().length);
            values += n;
        }
        assertTrue(values > 20);
    }

    @Test
    public void typedShortcutsAndWrongTypes() {
        try (Solver solver = Solver.create(Method.SVM); Kernel kernel = Kernel.create(KernelType.RBF)) {
            solver.setParam(Param.METHOD, Method.FALKON);
            assertSame(Method.FALKON, solver.method());
            kernel.setParam(Param.KERNEL, KernelType.LAPLACIAN);
            assertSame(KernelType.LAPLACIAN, kernel.type());
            solver.setParam(Param.BIAS, Bias.BIAS_OFF);
            // The value's type must be the parameter's: a Method is no Bias (though C would take its number).
            IllegalArgumentException wrong =
                    assertThrows(IllegalArgumentException.class, () -> solver.setParam(Param.BIAS, Method.SVM));
            assertTrue(wrong.getMessage(), wrong.getMessage().contains("Bias"));
            assertSame(Bias.BIAS_OFF, solver.param(Param.BIAS, Bias.class)); // unchanged
            assertThrows(IllegalArgumentException.class, () -> solver.setParam(Param.C, Method.SVM)); // numeric
            assertThrows(IllegalArgumentException.class, () -> solver.param(Param.BIAS, Method.class));
            assertThrows(IllegalArgumentException.class, () -> Library.paramValueName(Param.KERNEL, Method.SVM));
            assertThrows(NullPointerException.class, () -> solver.setParam(Param.BIAS, (ParamValue) null));
            assertEquals("falkon", Library.paramValueName(Param.METHOD, Method.FALKON));
        }
    }

    @Test
    public void enumGettersOfModelsAreEnums() throws Exception {
        // No getter of the package hands out an enum as a number: every method named for an enum
        // parameter or info key returns the enum (method(), task(), multiclass(), storage(), type()).
        assertSame(Method.class, Model.class.getMethod("method").getReturnType());
        assertSame(Method.class, Solver.class.getMethod("method").getReturnType());
        assertSame(KernelType.class, Kernel.class.getMethod("type").getReturnType());
        assertSame(io.kmx.Task.class, Model.class.getMethod("task").getReturnType());
        assertSame(io.kmx.Multiclass.class, Model.class.getMethod("multiclass").getReturnType());
        assertSame(io.kmx.Storage.class, io.kmx.Predictor.class.getMethod("storage").getReturnType());
        assertSame(io.kmx.Status.class, KmxException.class.getMethod("status").getReturnType());
    }
}
