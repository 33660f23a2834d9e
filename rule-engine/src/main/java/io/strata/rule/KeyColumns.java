package io.strata.rule;

import java.util.Set;

/**
 * What a merge learns of its keys' columns once the units answered, for the plans of later statements of the same
 * shape: a sort, group or aggregate key whose values are not strings needs no {@code WEIGHT_STRING} (the planner
 * asks for one wherever it cannot tell from the statement alone), and the servers need not compute it.
 */
public interface KeyColumns {

    /** Learns nothing: a plan made for one statement only. */
    KeyColumns NONE = new KeyColumns() {
        @Override
        public void notStrings(Set<Integer> weightColumns) {
        }

        @Override
        public void changed() {
        }
    };

    /** The values these weight columns (as planned) were derived from are not strings. */
    void notStrings(Set<Integer> weightColumns);

    /** A key planned as no string is one now (its column's type changed): plan the shape afresh. */
    void changed();
}
