package io.kmx;

import java.util.EnumMap;
import java.util.Map;

/** The enum type of each enum-valued parameter, and the conversions to and from C's numbers. */
final class ParamValues {
    private static final Map<Param, Class<? extends ParamValue>> TYPES = new EnumMap<>(Param.class);

    static {
        TYPES.put(Param.LOG_LEVEL, LogLevel.class);
        TYPES.put(Param.PRECISION, Precision.class);
        TYPES.put(Param.KERNEL, KernelType.class);
        TYPES.put(Param.METHOD, Method.class);
        TYPES.put(Param.BIAS, Bias.class);
        TYPES.put(Param.MULTICLASS, Multiclass.class);
        TYPES.put(Param.TASK, Task.class);
        TYPES.put(Param.CENTER_METHOD, CenterMethod.class);
        TYPES.put(Param.KERNEL_PRECISION, Precision.class);
        TYPES.put(Param.LOSS, Loss.class);
        TYPES.put(Param.APPROX, ApproxMethod.class);
        TYPES.put(Param.STORAGE, Storage.class);
    }

    private ParamValues() {}

    /** The enum type param takes, or null for a numeric parameter. */
    static Class<? extends ParamValue> type(Param param) {
        return TYPES.get(param);
    }

    /** C's number for value, checked to be of param's type. */
    static double encode(Param param, ParamValue value) {
        check(param, value == null ? null : value.getClass());
        return code(value);
    }

    /** The value of type that C's number stands for, type checked to be param's. */
    static <E extends Enum<E> & ParamValue> E decode(Param param, double number, Class<E> type) {
        check(param, type);
        for (E value : type.getEnumConstants()) {
            if (code(value) == number) return value;
        }
        throw new IllegalStateException(param + " is " + number + ", which is no " + type.getSimpleName());
    }

    private static void check(Param param, Class<?> type) {
        Class<? extends ParamValue> expected = type(param);
        if (type == null) throw new NullPointerException("no value for " + param);
        if (expected == null) {
            throw new IllegalArgumentException(param + " is numeric, not a " + type.getSimpleName());
        }
        if (expected != type) {
            throw new IllegalArgumentException(param + " takes a " + expected.getSimpleName() + ", not a "
                    + type.getSimpleName());
        }
    }

    /** C's number for value. */
    static int code(ParamValue value) {
        if (value instanceof LogLevel v) return v.swigValue();
        if (value instanceof Precision v) return v.swigValue();
        if (value instanceof KernelType v) return v.swigValue();
        if (value instanceof Method v) return v.swigValue();
        if (value instanceof Bias v) return v.swigValue();
        if (value instanceof Multiclass v) return v.swigValue();
        if (value instanceof Task v) return v.swigValue();
        if (value instanceof CenterMethod v) return v.swigValue();
        if (value instanceof Loss v) return v.swigValue();
        if (value instanceof ApproxMethod v) return v.swigValue();
        return ((Storage) value).swigValue(); // ParamValue permits no other type
    }
}
