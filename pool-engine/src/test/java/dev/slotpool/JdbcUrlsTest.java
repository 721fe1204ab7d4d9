package dev.slotpool;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every credential a JDBC URL can carry is gone from its redacted form, whatever characters it holds, and is among
 * {@link JdbcUrls#secretsOf} (what error texts are scrubbed of); a URL without one is left as it is.
 */
class JdbcUrlsTest {

    /** URL | a part of its secret | the URL redacted. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "jdbc:postgresql://app:p@ss@db1:5432/shop | p@ss | jdbc:postgresql://***:***@db1:5432/shop",
        "jdbc:postgresql://app:s3cr3t@db1/shop | s3cr3t | jdbc:postgresql://***:***@db1/shop",
        "jdbc:postgresql://u:p#ss@h/db | p#ss | jdbc:postgresql://***:***@h/db",
        "jdbc:postgresql://u:p?ss@h/db | p?ss | jdbc:postgresql://***:***@h/db",
        "jdbc:postgresql://u:p?ss@h | p?ss | jdbc:postgresql://***:***@h",
        "jdbc:postgresql://u:p/ss@h:5432/db | p/ss | jdbc:postgresql://***:***@h:5432/db",
        "jdbc:postgresql://u:p:s@s@h/db | p:s@s | jdbc:postgresql://***:***@h/db",
        "jdbc:postgresql://u:p%40ss@h/db | p%40ss | jdbc:postgresql://***:***@h/db",
        "jdbc:mysql://u:p@ss@[::1]:3306/db | p@ss | jdbc:mysql://***:***@[::1]:3306/db",
        "jdbc:postgresql://u:s3cr3t@h1:5432,h2:5432/db?targetServerType=primary | s3cr3t | "
                + "jdbc:postgresql://***:***@h1:5432,h2:5432/db?targetServerType=primary",
        "jdbc:mysql://db1/shop?user=app&password1=first&password2=second&password3=third | first | "
                + "jdbc:mysql://db1/shop?user=app&password1=***&password2=***&password3=***",
        "jdbc:postgresql://h/db?user=app&password=a@b:c/d | a@b:c/d | jdbc:postgresql://h/db?user=app&password=***",
        "jdbc:sqlserver://db1;user=app;password={a;b}};c};encrypt=true | b}};c | "
                + "jdbc:sqlserver://db1;user=app;password=***;encrypt=true",
        "jdbc:sqlserver://h;user=app;PWD={p;w};encrypt=true | p;w | jdbc:sqlserver://h;user=app;PWD=***;encrypt=true",
        "jdbc:postgresql://db1/shop?sslpassword=kp&sslkey=/k.pem | kp | jdbc:postgresql://db1/shop?sslpassword=***&sslkey=***",
        "jdbc:postgresql://h/db?sslmode=require&private_key_base64=QUJDRA== | QUJDRA | "
                + "jdbc:postgresql://h/db?sslmode=require&private_key_base64=***",
        "jdbc:snowflake://h/?passcode=123456&user=u | 123456 | jdbc:snowflake://h/?passcode=***&user=u",
        "jdbc:postgresql://h/db?ssl=true&sslpassphrase=PhraseS3cret | PhraseS3cret | "
                + "jdbc:postgresql://h/db?ssl=true&sslpassphrase=***",
        "jdbc:x://h/db;credentials=u:pw;ssl=true | u:pw | jdbc:x://h/db;credentials=***;ssl=true",
        "jdbc:x://h/db?apiToken=tk-1&client_secret=cs-2 | tk-1 | jdbc:x://h/db?apiToken=***&client_secret=***",
        "jdbc:x://h/db?apiToken=tk-1&client_secret=cs-2 | cs-2 | jdbc:x://h/db?apiToken=***&client_secret=***",
        "jdbc:oracle:thin:app/t1ger@//db1:1521/sales | t1ger | jdbc:oracle:thin:***/***@//db1:1521/sales",
        "jdbc:oracle:thin:scott/ti@ger@h | ger | jdbc:oracle:thin:***/***@h",
        "jdbc:oracle:thin:scott/ti@ger@h:1521:orcl | ger | jdbc:oracle:thin:***/***@h:1521:orcl",
        "jdbc:oracle:thin:scott/ti@ger@//db1:1521/sales | ti@ger | jdbc:oracle:thin:***/***@//db1:1521/sales",
        "jdbc:oracle:thin:scott/t/i@(DESCRIPTION=(ADDRESS=(HOST=db1)(PORT=1521))) | t/i | "
                + "jdbc:oracle:thin:***/***@(DESCRIPTION=(ADDRESS=(HOST=db1)(PORT=1521)))",
        "jdbc:oracle:thin:@db1?oracle.net.wallet_password=w4llet | w4llet | "
                + "jdbc:oracle:thin:@db1?oracle.net.wallet_password=***",
        "nodes=h1:6200,h2:6200;walletfile=/w;walletpassword=W4llet | W4llet | "
                + "nodes=h1:6200,h2:6200;walletfile=/w;walletpassword=***",
    })
    void noPartOfACredentialSurvivesRedaction(String url, String secretPart, String redacted) {
        assertThat(JdbcUrls.redact(url)).doesNotContain(secretPart).isEqualTo(redacted);
        assertThat(JdbcUrls.secretsOf(url)).anySatisfy(s -> assertThat(s).contains(secretPart));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "jdbc:h2:mem:east;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000;INIT=RUNSCRIPT FROM 'classpath:db/schema.sql'",
        "jdbc:postgresql://db1:5432,db2:5432/shop?targetServerType=primary&tcpKeepAlive=true",
        "jdbc:oracle:thin:@//db1:1521/sales",
        "jdbc:sqlserver://db1:1433;databaseName=shop;encrypt=true",
    })
    void aUrlWithoutACredentialIsLeftAsItIs(String url) {
        assertThat(JdbcUrls.redact(url)).isEqualTo(url);
        assertThat(JdbcUrls.secretsOf(url)).isEmpty();
    }
}
