package io.kmx;

/**
 * What C calls for a context's communicator (kmx_java_communicate in kmx_lang.i): runs the user's
 * Communicator and returns whatever it throws, which C keeps as the cause of the KmxException the
 * failing call throws, so no exception crosses into C. JNI holds the bridge weakly; the Context holds
 * it strongly while it is set.
 */
final class CommunicatorBridge {
    /** The operations, numbered as kmx_lang.i's KMX_JAVA_SUM, KMX_JAVA_MAX and KMX_JAVA_BROADCAST. */
    static final int SUM = 0;
    static final int MAX = 1;
    static final int BROADCAST = 2;

    private final Communicator communicator;
    /** Read by JNI when the bridge is set (kmx copies them into its table). */
    final int rank;
    final int size;

    CommunicatorBridge(Communicator communicator) {
        this.communicator = communicator;
        rank = communicator.rank();
        size = communicator.size();
    }

    /** Called through JNI on the thread running the kmx call: null once done, else what the communicator threw. */
    Throwable communicate(int operation, double[] values, byte[] bytes, int root) {
        try {
            switch (operation) {
                case SUM -> communicator.allreduceSum(values);
                case MAX -> communicator.allreduceMax(values);
                default -> communicator.broadcast(bytes, root);
            }
            return null;
        } catch (Throwable thrown) {
            return thrown;
        }
    }
}
