package dev.cim.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The server's web page in a real browser: Debian's {@code chromium}, headless, driven through
 * Debian's {@code chromedriver} (both installed by {@code .ci/run}). Selenium is never let to find or
 * download a driver or a browser of its own: both paths are given. Each page has a profile of its
 * own in a temporary directory, removed at {@link #close()}.
 *
 * <p>The page is read through its stable hooks: element ids and {@code data-test} attributes (see
 * {@code index.html} and {@code view.js}).
 */
final class WebPage implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;
    private final Duration wait;

    /**
     * Starts the browser, with a window of {@code width} by {@code height} pixels.
     *
     * @param wait how long each wait on the page may take
     */
    WebPage(int width, int height, Duration wait) throws IOException {
        for (Path needed : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(needed)) {
                throw new IllegalStateException(needed + " is missing (expected: Debian's chromium and chromium-driver, "
                        + "which .ci/run installs: apt-get install chromium chromium-driver)");
            }
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        this.profile = Files.createTempDirectory("cim-chromium-");
        this.wait = wait;
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        this.driver = new ChromeDriver(service, options);
    }

    /** The browser's version, as the driver reports it. */
    String browserVersion() {
        return driver.getCapabilities().getBrowserVersion();
    }

    /** The driver's version, as the driver reports it. */
    String driverVersion() {
        Object chrome = driver.getCapabilities().getCapability("chrome");
        return chrome instanceof java.util.Map<?, ?> map ? String.valueOf(map.get("chromedriverVersion")) : "?";
    }

    WebDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    /** Logs in with the form, and waits until the page is online. */
    void logIn(String user, String password) {
        element("#login-user").clear();
        element("#login-user").sendKeys(user);
        element("#login-password").sendKeys(password);
        element("#login-submit").click();
        awaitConnection("online");
    }

    /** Waits until the connection's state (#connection's data-state) is {@code state}. */
    void awaitConnection(String state) {
        awaitConnection(state, wait);
    }

    /** Like {@link #awaitConnection(String)}, for up to {@code timeout}. */
    void awaitConnection(String state, Duration timeout) {
        new WebDriverWait(driver, timeout).withMessage(() -> "the connection " + state + "; the page says:\n" + pageText())
                .ignoring(StaleElementReferenceException.class).until(d -> state.equals(element("#connection").getDomAttribute("data-state")));
    }

    /** Types a line into the input box and sends it (Enter). */
    void type(String line) {
        WebElement input = element("#input");
        input.clear();
        input.sendKeys(line);
        element("#send").click();
    }

    /**
     * Puts {@code text} into an input as if typed, for what a keyboard cannot type through the
     * driver (an ESC character) or types differently in each locale (a date-time picker).
     */
    void setValue(WebElement input, String text) {
        ((JavascriptExecutor) driver).executeScript("arguments[0].value = arguments[1];"
                + "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", input, text);
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    WebElement element(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> elements(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The message of the open conversation whose text contains {@code text}, once there is one. */
    WebElement message(String text) {
        return until("a message with '" + text + "'", d -> elements("#messages [data-test=message]").stream()
                .filter(m -> m.findElement(By.cssSelector(".text")).getText().contains(text)).findFirst().orElse(null));
    }

    /** The scheduled message of the panel whose text contains {@code text}, once there is one. */
    WebElement scheduled(String text) {
        return until("a scheduled message with '" + text + "'", d -> elements("#scheduled [data-test=scheduled]").stream()
                .filter(m -> m.findElement(By.cssSelector("[data-test=scheduled-text]")).getText().contains(text))
                .findFirst().orElse(null));
    }

    /**
     * The lines of the notices under the messages, one a line, as the page holds them (also those
     * scrolled out of their box).
     */
    String notices() {
        return (String) script("return [...document.querySelectorAll('#notices .notice > div')]"
                + ".map((line) => line.textContent).join('\\n')");
    }

    /** Waits until a line of the notices contains {@code text}, and returns that line. */
    String notice(String text) {
        return until("a notice with '" + text + "'", d -> notices().lines().filter(l -> l.contains(text))
                .findFirst().orElse(null));
    }

    /** Opens {@code url} in a new tab of the same browser and shows it; returns the tab that was shown. */
    String openTab(String url) {
        String before = driver.getWindowHandle();
        driver.switchTo().newWindow(WindowType.TAB);
        driver.get(url);
        return before;
    }

    /** Shows tab {@code tab} (from {@link #openTab}). */
    void showTab(String tab) {
        driver.switchTo().window(tab);
    }

    /**
     * Waits until {@code condition} gives something other than null or false, and returns it. An
     * element the page re-rendered while the condition read it makes it read again.
     */
    <T> T until(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, wait).withMessage(() -> what + "; the page says:\n" + pageText())
                .ignoring(StaleElementReferenceException.class).until(condition);
    }

    /** What the page shows, for failure messages. */
    String pageText() {
        try {
            return driver.findElement(By.tagName("body")).getText();
        } catch (RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Resizes the window (the page's own layout follows). */
    void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Saves a screenshot of the window as {@code file} (a PNG). */
    Path screenshot(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
            return Files.move(shot, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
