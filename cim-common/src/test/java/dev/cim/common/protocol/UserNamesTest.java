package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class UserNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"alice", "Bob_2", "a.b-c", "x", "7", "abcdefghijklmnopqrstuvwxyz012345", "a_b.c-d", "A1-b2"})
    void isValid_lettersDigitsAndSinglePunctuationInside_isTrue(String name) {
        assertThat(UserNames.isValid(name)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"everyone", "Everyone", "al ice", "@bob", "ä", "аlice" /* Cyrillic а */,
            "abcdefghijklmnopqrstuvwxyz0123456", "alice.", ".alice", "_bob", "a..b", "a.-b", "bob\u001b[2J", "-", "a-",
            "a_", "a b", "a\u0000"})
    void problem_invalidName_saysWhy(String name) {
        assertThat(UserNames.problem(name)).hasValueSatisfying(reason -> assertThat(reason).isNotBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice.", "bob\u001b[2J", "a..b"})
    void problem_badCharacters_namesTheExpectedShape_withoutEchoingTheName(String name) {
        assertThat(UserNames.problem(name)).get().asString()
                .contains("beginning and ending with a letter or digit")
                .doesNotContain("\u001b");
    }

    @ParameterizedTest
    @CsvSource({"Alice,alice", "ALICE,alice", "bob_2,bob_2", "Bob.Smith,bob.smith"})
    void canonical_isLowerCase(String name, String canonical) {
        assertThat(UserNames.canonical(name)).isEqualTo(canonical);
    }

    @ParameterizedTest
    @CsvSource({"alice,ALICE", "alice,a1ice", "alice,al.ice", "alice,a_lice", "alice,a-l-i-c-e", "bob,b0b",
            "mary,rnary", "wendy,vvendy", "olli,0l1i"})
    void skeleton_lookAlikes_areEqual(String name, String lookAlike) {
        assertThat(UserNames.skeleton(lookAlike)).isEqualTo(UserNames.skeleton(name));
    }

    @ParameterizedTest
    @CsvSource({"alice,alicia", "bob,bobby", "ann,anna", "mary,marry"})
    void skeleton_differentNames_differ(String name, String other) {
        assertThat(UserNames.skeleton(other)).isNotEqualTo(UserNames.skeleton(name));
    }
}
