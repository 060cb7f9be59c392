package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A job's jar, carried by the user function calls that need its classes: its SHA-256 ({@code id})
 * and its bytes. The constructor checks that the bytes hash to the id, so a node that receives one
 * loads exactly the jar the job was submitted with. Equal by id.
 *
 * @param id the bytes' SHA-256, in lower-case hex
 */
public record UserJar(String id, byte[] bytes) {
    /** The largest jar that may travel with a task (Kryo's array cap on the wire is 2^20 elements). */
    public static final int MAX_BYTES = 1 << 20;

    public UserJar {
        requireNonNull(id, "id is null");
        requireNonNull(bytes, "bytes is null");
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("a job jar carrying user functions may be at most " + MAX_BYTES
                    + " bytes, not " + bytes.length);
        }
        if (!id.equals(sha256(bytes))) {
            throw new IllegalArgumentException("job jar bytes do not match their id " + id);
        }
    }

    public static UserJar of(byte[] bytes) {
        return new UserJar(sha256(bytes), bytes.clone());
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UserJar jar && jar.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "jar " + id.substring(0, 12);
    }
}
