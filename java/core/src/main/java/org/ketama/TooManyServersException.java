package org.ketama;

/** More servers than the profile's client takes (mcrouter: 2^23) (core's {@code TooManyServers}). */
public class TooManyServersException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public TooManyServersException(String message) {
        super("TooManyServers", message);
    }
}
