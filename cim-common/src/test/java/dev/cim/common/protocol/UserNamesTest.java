package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class UserNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"alice", "Bob_2", "a.b-c", "x", "abcdefghijklmnopqrstuvwxyz012345"})
    void isValid_lettersDigitsAndPunctuationUpTo32_isTrue(String name) {
        assertThat(UserNames.isValid(name)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"everyone", "al ice", "@bob", "ä", "abcdefghijklmnopqrstuvwxyz0123456"})
    void problem_invalidName_saysWhy(String name) {
        assertThat(UserNames.problem(name)).hasValueSatisfying(reason -> assertThat(reason).isNotBlank());
    }
}
