package io.kmx;

import java.util.function.ToLongBiFunction;

/**
 * What calls run with: threads, seed, memory budget, log and progress callbacks, cancellation, and the
 * ranks a training call spans (a Communicator). Used by one thread at a time, except cancel(), which
 * any thread may call.
 */
public final class Context extends NativeResource {
    private static final int LOG = 0;
    private static final int PROGRESS = 1;
    private static final int COMMUNICATOR = 2;

    private final Release release;
    /** The objects C calls back: JNI holds them weakly, this context strongly. */
    private final Object[] callbackTargets = new Object[3];

    private Context(Release release) {
        super(release.context, release);
        this.release = release;
    }

    /** A context with the defaults (1 thread, seed 0, no budget, no callbacks). */
    public static Context create() {
        return new Context(new Release(kmx.kmx_context_create()));
    }

    /** A context with parameters such as "threads=2 seed=7". */
    public static Context create(String params) {
        Context ctx = create();
        try {
            ctx.setParams(params);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        return ctx;
    }

    /** Sets one context parameter (THREADS, SEED, MEMORY_BUDGET; LOG_LEVEL, PRECISION take enums too). */
    public void setParam(Param param, double value) {
        kmx.kmx_context_set_param(this, param, value);
    }

    /** A context parameter's value. */
    public double param(Param param) {
        return kmx.kmx_context_get_param(this, param);
    }

    /**
     * Sets an enum-valued parameter (LOG_LEVEL, PRECISION) to value, e.g.
     * {@code setParam(Param.LOG_LEVEL, LogLevel.DEBUG)}; IllegalArgumentException if value is not of
     * the type param takes (Library.paramValueType).
     */
    public void setParam(Param param, ParamValue value) {
        setParam(param, ParamValues.encode(param, value));
    }

    /** An enum-valued parameter's value as its type, e.g. {@code param(Param.LOG_LEVEL, LogLevel.class)}. */
    public <E extends Enum<E> & ParamValue> E param(Param param, Class<E> type) {
        return ParamValues.decode(param, param(param), type);
    }

    /** Sets parameters from "key=value ..."; all are checked first, so on error nothing changes. */
    public void setParams(String params) {
        kmx.kmx_context_set_params(this, params);
    }

    /** Sends log messages at or below LOG_LEVEL to handler; null removes it. */
    public void setLogCallback(LogHandler handler) {
        setCallback(LOG, handler == null ? null : new LogBridge(handler), kmx::kmx_context_set_log_callback);
    }

    /** Sends progress to handler, which may cancel the call; null removes it. */
    public void setProgressCallback(ProgressHandler handler) {
        setCallback(PROGRESS, handler, kmx::kmx_context_set_progress_callback);
    }

    /**
     * Makes the calls made with this context span the ranks of communicator: Nyström-TRON and FALKON
     * training then sum over every rank's rows, and {@link Dataset#loadShard} is collective. kmx reads
     * its rank() and size() now (a rank outside [0, size) throws KmxException INVALID_ARGUMENT and
     * keeps the one set before); null makes this process alone again (the default). The context holds
     * the communicator until it is replaced or the context is closed. See {@link Communicator}.
     */
    public void setCommunicator(Communicator communicator) {
        setCallback(COMMUNICATOR, communicator == null ? null : new CommunicatorBridge(communicator),
                    (ctx, bridge) -> kmx.kmx_context_set_communicator(ctx, (CommunicatorBridge) bridge));
    }

    /** Asks the call running with this context to stop soon (it throws CANCELLED). Any thread. */
    public void cancel() {
        kmx.kmx_context_cancel(this);
    }

    /** The largest workspace in bytes the last call reserved from the memory budget. */
    public long peakBytes() {
        return kmx.kmx_context_peak_bytes(this);
    }

    private void setCallback(int slot, Object target, ToLongBiFunction<NativePointer, Object> set) {
        long handler = set.applyAsLong(this, target);
        callbackTargets[slot] = target;
        release.replaceHandler(slot, handler);
    }

    /** Gives a LogHandler the level as an enum; JNI calls log(int, String). */
    private record LogBridge(LogHandler handler) {
        void log(int level, String message) {
            handler.log(LogLevel.swigToEnum(level), message);
        }
    }

    /** Frees the C context, then the JNI handlers it called; never refers to the Context. */
    private static final class Release implements Runnable {
        final long context;
        private final long[] handlers = new long[3];

        Release(long context) {
            this.context = context;
        }

        /** Installs a new handler (0 for none) in slot and frees the one C no longer calls. */
        synchronized void replaceHandler(int slot, long handler) {
            kmx.kmx_java_handler_free(handlers[slot]);
            handlers[slot] = handler;
        }

        @Override
        public synchronized void run() {
            kmx.kmx_context_free(new NativePointer(context));
            for (long handler : handlers) kmx.kmx_java_handler_free(handler);
        }
    }
}
