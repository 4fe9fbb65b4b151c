package io.kmx;

/** Receives a context's log messages, on the thread running the call. */
@FunctionalInterface
public interface LogHandler {
    /** One message at the given level. */
    void log(LogLevel level, String message);
}
