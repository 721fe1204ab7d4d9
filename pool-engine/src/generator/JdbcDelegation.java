import java.io.IOException;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Writes the JDBC proxies' plain delegation ({@code dev.slotpool.jdbc.*Delegation}) from the {@code java.sql}
 * interfaces of the JDK running the build; run by Maven in generate-sources (pool-engine's pom), as a source-file
 * program, so the engine has no build-only module and nothing of this reaches its jar.
 *
 * <p>Each generated class is abstract and implements every method of its interface but the ones its proxy writes
 * by hand (the table below) as one delegating call, {@code try { return hook().method(args); } catch
 * (SQLException e) { throw failed(e); }}. The hook is the proxy's delegate for that kind of call (the table's
 * default hook unless it names another for the method: see each proxy's class comment), {@code failed} its error
 * path, and a {@code ResultSet} returned is passed through the proxy's {@code wrap}. Generated methods are final,
 * so a proxy cannot override one by accident: a method that behaves differently goes into the table's
 * hand-written set. The compiler checks the rest: a hand-written method missing leaves the proxy abstract, and a
 * method the target release lacks fails its {@code @Override}.
 *
 * <p>Usage: {@code java JdbcDelegation.java <output source root>}; files are rewritten only when they change. In
 * the unnamed package: from JDK 22 the launcher wants a named package's file under its package's directories.
 */
public final class JdbcDelegation {

    private static final String PACKAGE = "dev.slotpool.jdbc";

    /**
     * One generated class.
     *
     * @param name        the generated class
     * @param iface       the JDBC interface it implements
     * @param typeParams  the class's type parameters, or ""
     * @param superclass  the hand-written class it extends, or null: then it declares the hooks it calls
     * @param parent      the interface whose methods the superclass already implements, or null
     * @param delegate    the delegate's type the hooks return
     * @param constructor the constructor's parameters passed to the superclass, or ""
     * @param defaultHook the hook of every method not in {@code hooks}
     * @param hooks       method name to its hook, for the methods that use another
     * @param handWritten the methods the proxy writes itself: a name (every overload) or {@code name(Type,...)}
     */
    record Delegation(String name, Class<?> iface, String typeParams, String superclass, Class<?> parent,
            String delegate, String constructor, String defaultHook, Map<String, String> hooks,
            Set<String> handWritten) {
    }

    static final List<Delegation> DELEGATIONS = List.of(
            new Delegation("ConnectionDelegation", Connection.class, "", null, null, "Connection", "", "live",
                    hooks(Map.of(
                            "reaching", "nativeSQL getTypeMap createClob createBlob createNClob createSQLXML"
                                    + " createArrayOf createStruct",
                            "running", "setSavepoint")),
                    Set.of("close", "abort", "isClosed", "isValid", "commit", "rollback()", "setAutoCommit",
                            "getTransactionIsolation", "setTransactionIsolation", "setReadOnly", "setCatalog",
                            "setSchema", "setNetworkTimeout", "setHoldability", "setTypeMap", "setClientInfo",
                            "getMetaData", "createStatement", "prepareStatement", "prepareCall", "unwrap",
                            "isWrapperFor")),
            new Delegation("StatementDelegation", Statement.class, "<S extends Statement>", null, null, "S", "",
                    "live",
                    hooks(Map.of(
                            "active", "getResultSet getMoreResults getGeneratedKeys",
                            "running", "executeQuery executeUpdate execute executeBatch executeLargeBatch"
                                    + " executeLargeUpdate",
                            "batching", "addBatch")),
                    Set.of("close", "cancel", "isClosed", "getConnection", "unwrap", "isWrapperFor",
                            "setMaxFieldSize", "setMaxRows", "setLargeMaxRows", "setQueryTimeout",
                            "setFetchDirection", "setFetchSize", "setEscapeProcessing", "setCursorName",
                            "setPoolable", "closeOnCompletion")),
            new Delegation("PreparedStatementDelegation", PreparedStatement.class, "<S extends PreparedStatement>",
                    "AbstractProxyStatement<S>", Statement.class, "S",
                    "ProxyConnection connection, S delegate, CachedStatement cached", "live",
                    hooks(Map.of(
                            "active", "getMetaData getParameterMetaData",
                            "running", "executeQuery executeUpdate execute executeLargeUpdate",
                            "batching", "addBatch",
                            "binding", "setNull setBoolean setByte setShort setInt setLong setFloat setDouble"
                                    + " setBigDecimal setString setBytes setDate setTime setTimestamp"
                                    + " setAsciiStream setUnicodeStream setBinaryStream setObject"
                                    + " setCharacterStream setRef setBlob setClob setArray setURL setRowId"
                                    + " setNString setNCharacterStream setNClob setSQLXML")),
                    Set.of()),
            new Delegation("CallableStatementDelegation", CallableStatement.class, "",
                    "ProxyPreparedStatement<CallableStatement>", PreparedStatement.class, "CallableStatement",
                    "ProxyConnection connection, CallableStatement delegate, CachedStatement cached", "live",
                    Map.of(), Set.of()),
            new Delegation("ResultSetDelegation", ResultSet.class, "", null, null, "ResultSet", "", "live",
                    hooks(Map.of(
                            "active", "next previous first last absolute relative beforeFirst afterLast"
                                    + " refreshRow",
                            "running", "insertRow updateRow deleteRow")),
                    Set.of("getStatement", "isClosed", "close", "unwrap", "isWrapperFor")),
            new Delegation("DatabaseMetaDataDelegation", DatabaseMetaData.class, "", null, null,
                    "DatabaseMetaData", "", "reaching", Map.of(),
                    Set.of("getConnection", "unwrap", "isWrapperFor", "getDriverMajorVersion",
                            "getDriverMinorVersion")));

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: JdbcDelegation <output source root>");
        }
        Path dir = Path.of(args[0]).resolve(PACKAGE.replace('.', '/'));
        Files.createDirectories(dir);
        for (Delegation d : DELEGATIONS) {
            Path file = dir.resolve(d.name() + ".java");
            String source = new JdbcDelegation(d).source();
            if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(source)) {
                Files.writeString(file, source, StandardCharsets.UTF_8);
            }
        }
    }

    /** The table's "hook: method method ..." lists, as method name to hook; a name in two lists is an error. */
    private static Map<String, String> hooks(Map<String, String> namesByHook) {
        return namesByHook.entrySet().stream()
                .flatMap(e -> Arrays.stream(e.getValue().split(" ")).map(m -> Map.entry(m, e.getKey())))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private final Delegation d;
    private final Set<String> imports = new TreeSet<>();

    private JdbcDelegation(Delegation d) {
        this.d = d;
    }

    private String source() {
        List<Method> methods = delegatedMethods();
        StringBuilder body = new StringBuilder();
        imports.add(SQLException.class.getName());
        imports.add(d.iface().getName());
        if (!d.constructor().isEmpty()) {
            String names = Arrays.stream(d.constructor().split(", ")).map(p -> p.substring(p.lastIndexOf(' ') + 1))
                    .collect(Collectors.joining(", "));
            body.append("\n    ").append(d.name()).append('(').append(d.constructor()).append(") {\n")
                    .append("        super(").append(names).append(");\n    }\n");
        }
        if (d.superclass() == null) {
            Set<String> used = new TreeSet<>();
            methods.forEach(m -> used.add(hook(m)));
            for (String hook : used) {
                body.append("\n    abstract ").append(d.delegate()).append(' ').append(hook)
                        .append("() throws SQLException;\n");
            }
            body.append("\n    abstract SQLException failed(SQLException e);\n");
            if (methods.stream().anyMatch(m -> m.getReturnType() == ResultSet.class)) {
                imports.add(ResultSet.class.getName());
                body.append("\n    abstract ResultSet wrap(ResultSet resultSet);\n");
            }
        }
        for (Method m : methods) {
            body.append(method(m));
        }
        StringBuilder out = new StringBuilder();
        out.append("// Generated by pool-engine's src/generator/JdbcDelegation.java from ")
                .append(d.iface().getName()).append(": edit the generator, not this file.\n");
        out.append("package ").append(PACKAGE).append(";\n\n");
        for (String i : imports) {
            if (!i.startsWith("java.lang.") || i.lastIndexOf('.') != "java.lang".length()) {
                out.append("import ").append(i).append(";\n");
            }
        }
        out.append("\n/** The plain delegation of {@link ").append(d.iface().getSimpleName())
                .append("}: every method its proxy does not write by hand. */\n");
        out.append("abstract class ").append(d.name()).append(d.typeParams());
        if (d.superclass() != null) {
            out.append(" extends ").append(d.superclass());
        }
        out.append(" implements ").append(d.iface().getSimpleName()).append(" {\n");
        out.append(body).append("}\n");
        return out.toString();
    }

    /** The interface's methods less the superclass's and the hand-written ones, in a stable order. */
    private List<Method> delegatedMethods() {
        Set<String> inherited = new HashSet<>();
        if (d.parent() != null) {
            for (Method m : d.parent().getMethods()) {
                inherited.add(signature(m));
            }
        }
        Set<String> handWrittenSeen = new HashSet<>();
        Set<String> hooksSeen = new HashSet<>();
        List<Method> methods = new ArrayList<>();
        Set<String> signatures = new HashSet<>();
        for (Method m : d.iface().getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || inherited.contains(signature(m))
                    || !signatures.add(signature(m))) {
                continue;
            }
            if (d.handWritten().contains(m.getName()) || d.handWritten().contains(signature(m))) {
                handWrittenSeen.add(d.handWritten().contains(m.getName()) ? m.getName() : signature(m));
                continue;
            }
            if (!Arrays.asList(m.getExceptionTypes()).contains(SQLException.class)) {
                throw new IllegalStateException(signature(m) + " does not throw SQLException: write it by hand");
            }
            hooksSeen.add(m.getName());
            methods.add(m);
        }
        check(handWrittenSeen, d.handWritten(), "hand-written");
        check(hooksSeen, d.hooks().keySet(), "hooked");
        methods.sort(Comparator.comparing(JdbcDelegation::signature));
        return methods;
    }

    /** A table entry that names no generated method is stale (or misspelt): the build stops. */
    private void check(Set<String> seen, Set<String> listed, String what) {
        Set<String> stale = new TreeSet<>(listed);
        stale.removeAll(seen);
        if (!stale.isEmpty()) {
            throw new IllegalStateException(d.name() + ": " + what + " methods not in "
                    + d.iface().getName() + ": " + stale);
        }
    }

    private String hook(Method m) {
        return d.hooks().getOrDefault(m.getName(), d.defaultHook());
    }

    private String method(Method m) {
        StringBuilder s = new StringBuilder("\n");
        if (m.isAnnotationPresent(Deprecated.class)) {
            s.append("    @Deprecated\n");
        }
        s.append("    @Override\n    public final ");
        TypeVariable<Method>[] typeParams = m.getTypeParameters();
        if (typeParams.length > 0) {
            s.append(Arrays.stream(typeParams).map(TypeVariable::getName).collect(Collectors.joining(", ", "<", "> ")));
        }
        Type[] params = m.getGenericParameterTypes();
        List<String> declared = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < params.length; i++) {
            names.add("arg" + i);
            declared.add(type(params[i]) + " arg" + i);
        }
        s.append(type(m.getGenericReturnType())).append(' ').append(m.getName())
                .append('(').append(String.join(", ", declared)).append(')');
        s.append(" throws ").append(Arrays.stream(m.getExceptionTypes()).map(this::type)
                .collect(Collectors.joining(", "))).append(" {\n");
        String call = hook(m) + "()." + m.getName() + "(" + String.join(", ", names) + ")";
        if (m.getReturnType() == ResultSet.class) {
            call = "wrap(" + call + ")";
        }
        String statement = m.getReturnType() == void.class ? call + ";" : "return " + call + ";";
        s.append("        try {\n            ").append(statement).append("\n        } catch (SQLException e) {\n")
                .append("            throw failed(e);\n        }\n    }\n");
        return s.toString();
    }

    /** A type as source, importing what it names. */
    private String type(Type t) {
        if (t instanceof Class<?> c) {
            if (c.isArray()) {
                return type(c.getComponentType()) + "[]";
            }
            if (c.isPrimitive()) {
                return c.getName();
            }
            imports.add(c.getName());
            return c.getSimpleName();
        }
        if (t instanceof ParameterizedType p) {
            return type(p.getRawType()) + Arrays.stream(p.getActualTypeArguments()).map(this::type)
                    .collect(Collectors.joining(", ", "<", ">"));
        }
        if (t instanceof WildcardType w) {
            if (w.getLowerBounds().length > 0) {
                return "? super " + type(w.getLowerBounds()[0]);
            }
            Type upper = w.getUpperBounds()[0];
            return upper == Object.class ? "?" : "? extends " + type(upper);
        }
        if (t instanceof GenericArrayType g) {
            return type(g.getGenericComponentType()) + "[]";
        }
        if (t instanceof TypeVariable<?> v) {
            return v.getName();
        }
        throw new IllegalStateException("unexpected type " + t);
    }

    /** Name and erased parameter types, e.g. {@code rollback(Savepoint)}: overloads apart, covariance ignored. */
    private static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(",", "(", ")"));
    }
}
