package org.ketama;

/** Bounded loads given current loads that do not have one entry per server (core's {@code BadLoads}). */
public class BadLoadsException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public BadLoadsException(String message) {
        super("BadLoads", message);
    }
}
