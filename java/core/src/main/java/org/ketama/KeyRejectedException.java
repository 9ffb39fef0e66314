package org.ketama;

/** The profile's client refuses this key (core's {@code KeyRejected}). */
public class KeyRejectedException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public KeyRejectedException(String message) {
        super("KeyRejected", message);
    }
}
