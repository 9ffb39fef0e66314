package org.ketama;

/**
 * The base of every error this library throws; each subclass is named after one entry of
 * core's error vocabulary ({@code UnknownProfile} is {@link UnknownProfileException}, ...).
 * Messages are the spec's texts.
 */
public class KetamaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String errorName;

    /** An error of core's vocabulary {@code errorName}. */
    protected KetamaException(String errorName, String message) {
        super(message);
        this.errorName = errorName;
    }

    /** The vocabulary name: {@code "EmptyRing"}, {@code "UnknownProfile"}, ... */
    public String errorName() {
        return errorName;
    }

    /** The exception for a vocabulary name (the spec's message). */
    static KetamaException of(String errorName) {
        return of(errorName, null);
    }

    /** The exception for a vocabulary name, its message followed by {@code detail} when given. */
    static KetamaException of(String errorName, String detail) {
        String m = Spec.get().message(errorName);
        if (detail != null) {
            m = m + ": " + detail;
        }
        switch (errorName) {
            case "EmptyRing": return new EmptyRingException(m);
            case "NoServer": return new NoServerException(m);
            case "UnknownProfile": return new UnknownProfileException(m);
            case "UnknownHash": return new UnknownHashException(m);
            case "AmbiguousHash": return new AmbiguousHashException(m);
            case "BadWeight": return new BadWeightException(m);
            case "DuplicateServer": return new DuplicateServerException(m);
            case "MissingServer": return new MissingServerException(m);
            case "BadLabel": return new BadLabelException(m);
            case "KeyRejected": return new KeyRejectedException(m);
            case "Unsupported": return new UnsupportedException(m);
            case "TooManyPoints": return new TooManyPointsException(m);
            case "BadFactor": return new BadFactorException(m);
            case "FixedPoints": return new FixedPointsException(m);
            case "NotAContinuum": return new NotAContinuumException(m);
            case "NeedsKey": return new NeedsKeyException(m);
            case "BadLoads": return new BadLoadsException(m);
            case "TooManyServers": return new TooManyServersException(m);
            case "UnknownAlgorithm": return new UnknownAlgorithmException(m);
            case "ZeroBuckets": return new ZeroBucketsException(m);
            case "TooManyBuckets": return new TooManyBucketsException(m);
            case "NoBucket": return new NoBucketException(m);
            case "BadOption": return new BadOptionException(m);
            default: return new KetamaException(errorName, m);
        }
    }
}
