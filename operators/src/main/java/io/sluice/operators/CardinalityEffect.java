package io.sluice.operators;

/** How an operator's row count compares with its input's. */
public enum CardinalityEffect { UNKNOWN, EQUAL, LOWER_EQUAL, GREATER_EQUAL }
