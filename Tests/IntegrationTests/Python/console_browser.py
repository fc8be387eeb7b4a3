"""The operator console (issue 36) in headless Chromium, JavaScript and all, as an operator uses it.

usage: console_browser.py GATEWAY_URL EMAIL PASSWORD TOTP_SECRET APP_NAME STORY_ID AUTHOR_ID SCREENSHOT_DIR NEW_APP GRACE

Signs in with a TOTP code computed here (RFC 6238, SHA-1, 30 s, 6 digits), chooses a password
(the first sign-in's), opens the app's reports queue, finds the reported story and its photo drawn, bans its author
from the queue with a reason, then visits the author's page (their content listed), the story's content page, the audit
log and the operators; then registers an app named NEW_APP (its key shown once), rotates its key
with a grace of GRACE seconds and checks through the gateway that both keys open the app. Saves a screenshot of every screen as SCREENSHOT_DIR/console-<screen>.png.
Prints one JSON line of what it saw.
"""
import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from console_common import key_status, visit


def main():
    gateway, email, password, secret, app_name, story, author, shots, new_app, grace = sys.argv[1:11]

    def steps(console, seen):
        driver = console.driver
        seen["notice"] = console.sign_in_first_time(email, password, secret)
        seen["asked_for_password"] = "password" in console.screens
        console.shot("overview")

        driver.find_element(By.LINK_TEXT, app_name).click()
        console.at("/reports")
        group = driver.find_element(By.ID, "g-" + story)
        seen["queued_preview"] = group.find_element(By.CSS_SELECTOR, ".preview").text
        seen["queued_reasons"] = group.find_element(By.CSS_SELECTOR, ".reasons").text
        # The story's photo as the app shows it, drawn by the browser (read through admin-svc).
        drawn = "var i = arguments[0].querySelector('.thumbs img'); return i && i.complete ? i.naturalWidth : 0;"
        try:
            seen["queued_image_width"] = WebDriverWait(driver, 15).until(lambda d: d.execute_script(drawn, group))
        except TimeoutException:
            seen["queued_image_width"] = 0
        console.shot("reports")
        # The one script's keys: j moves to the first group.
        driver.find_element(By.TAG_NAME, "body").send_keys("j")
        seen["keyboard_focus"] = driver.execute_script("return document.activeElement.id")
        group.find_element(By.NAME, "reason").send_keys("반복된 욕설")
        group.find_element(By.CSS_SELECTOR, "button[value=ban]").click()
        console.at("done=banned")
        seen["after_ban_notice"] = driver.find_element(By.CSS_SELECTOR, "p.notice").text
        seen["still_queued"] = len(driver.find_elements(By.ID, "g-" + story)) > 0
        console.shot("reports-after-ban")

        base = driver.current_url.split("/reports")[0]
        driver.get(base + "/users?q=" + author)
        console.shot("users")
        driver.find_element(By.CSS_SELECTOR, "a[href$='/users/%s']" % author).click()
        console.at("/users/" + author)
        seen["user_page_banned"] = "Banned" in driver.find_element(By.TAG_NAME, "main").text
        seen["user_page_content"] = [piece.find_element(By.CSS_SELECTOR, ".preview").text for piece in driver.find_elements(By.CSS_SELECTOR, ".piece")]
        console.shot("user")
        driver.get(base + "/content?kind=story&id=" + story)
        seen["content_preview"] = driver.find_element(By.CSS_SELECTOR, ".preview").text
        console.shot("content")
        driver.get(gateway + "/admin/audit")
        seen["audit_actions"] = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "tbody tr td:nth-child(4)")]
        console.shot("audit")
        driver.get(gateway + "/admin/operators")
        console.shot("operators")

        driver.get(gateway + "/admin/apps")
        console.shot("apps")
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/admin/apps']")
        form.find_element(By.NAME, "name").send_keys(new_app)
        form.find_element(By.NAME, "refresh_with_access_token_only").click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        old_key = WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "key")).text
        seen["registered_key_status"] = key_status(gateway, old_key)
        seen["old_key"] = old_key
        console.shot("app-registered")
        driver.find_element(By.LINK_TEXT, "Back to the app").click()
        console.at("/settings")
        console.shot("app-settings")
        field = driver.find_element(By.NAME, "grace_seconds")
        field.clear()
        field.send_keys(grace)
        field.find_element(By.XPATH, "./ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        console.at("/rotate-key")
        new_key = driver.find_element(By.ID, "key").text
        seen["old_key_within_grace"] = key_status(gateway, old_key)
        seen["new_key"] = new_key
        seen["new_key_status"] = key_status(gateway, new_key)
        console.shot("app-key")

    visit(gateway, shots, steps)


if __name__ == "__main__":
    main()
