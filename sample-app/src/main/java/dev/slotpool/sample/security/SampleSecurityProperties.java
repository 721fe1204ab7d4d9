package dev.slotpool.sample.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code sample.security.*}: the passwords of the two demo users, kept only in encoded form once read. */
@ConfigurationProperties(prefix = "sample.security")
public class SampleSecurityProperties {

    /** Password of the user "viewer" (role VIEWER: pages and GET /actuator/**). Demo default: viewer-demo. */
    private String viewerPassword = "viewer-demo";

    /** Password of the user "admin" (role ADMIN: also POST /actuator/** and the /load form). Demo default: admin-demo. */
    private String adminPassword = "admin-demo";

    public String getViewerPassword() { return viewerPassword; }
    public void setViewerPassword(String viewerPassword) { this.viewerPassword = viewerPassword; }
    public String getAdminPassword() { return adminPassword; }
    public void setAdminPassword(String adminPassword) { this.adminPassword = adminPassword; }
}
