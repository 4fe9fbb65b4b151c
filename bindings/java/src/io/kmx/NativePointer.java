package io.kmx;

/** The address of a C object as the JNI layer reads it (see kmx_lang.i); 0 passes NULL. */
class NativePointer {
    /** Read through JNI by every call that takes this object's handle; 0 once freed. */
    long address;

    NativePointer(long address) {
        this.address = address;
    }
}
