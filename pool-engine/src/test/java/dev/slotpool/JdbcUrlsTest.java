package dev.slotpool;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every credential a JDBC URL can carry is gone from its redacted form, whatever characters it holds. */
class JdbcUrlsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "jdbc:postgresql://app:p@ss@db1:5432/shop | ss@db1 | jdbc:postgresql://***:***@db1:5432/shop",
        "jdbc:postgresql://app:s3cr3t@db1/shop | s3cr3t | jdbc:postgresql://***:***@db1/shop",
        "jdbc:mysql://db1/shop?user=app&password1=first&password2=second&password3=third | first | "
                + "jdbc:mysql://db1/shop?user=app&password1=***&password2=***&password3=***",
        "jdbc:sqlserver://db1;user=app;password={a;b}};c};encrypt=true | b}};c | "
                + "jdbc:sqlserver://db1;user=app;password=***;encrypt=true",
        "jdbc:oracle:thin:app/t1ger@//db1:1521/sales | t1ger | jdbc:oracle:thin:***/***@//db1:1521/sales",
        "jdbc:postgresql://db1/shop?sslpassword=kp&sslkey=/k.pem | kp | jdbc:postgresql://db1/shop?sslpassword=***&sslkey=***",
        "jdbc:oracle:thin:@db1?oracle.net.wallet_password=w4llet | w4llet | jdbc:oracle:thin:@db1?oracle.net.wallet_password=***",
    })
    void noPartOfACredentialSurvivesRedaction(String url, String secretPart, String redacted) {
        String r = JdbcUrls.redact(url);
        assertThat(r).doesNotContain(secretPart).isEqualTo(redacted);
    }
}
