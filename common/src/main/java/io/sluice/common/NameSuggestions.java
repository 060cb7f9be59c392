package io.sluice.common;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean ...?" for an unknown name (table, column, setting): the closest known name, if close enough. */
public final class NameSuggestions {
    private NameSuggestions() {
    }

    /**
     * {@code " did you mean 'x'?"} for the known name closest to {@code name} (case-insensitive edit
     * distance at most a third of the name's length and at least 1; none for names under three
     * characters, where any name is close), else the empty string.
     */
    public static String didYouMean(String name, Collection<String> known) {
        String lower = name.toLowerCase(Locale.ROOT);
        int limit = lower.length() < 3 ? 0 : Math.max(1, lower.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (d <= limit && d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : " did you mean '" + best + "'?";
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
