package dev.slotpool.sample.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** {@code /}: links to the load page, the pool endpoint and the other exposed endpoints. */
@Controller
class HomeController {

    @GetMapping("/")
    String home() {
        return "index";
    }
}
