from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("confirm/<str:token>/", views.confirm_email, name="confirm_email"),
    path("confirm-again/", views.resend_confirmation, name="resend_confirmation"),
    path("profile/", views.profile, name="profile"),
    path("profile/emails/", views.email_preferences, name="email_preferences"),
    path("profile/away/", views.away, name="away"),
    path("profile/calendar/", views.calendar_address, name="calendar_address"),
    path("unsubscribe/<str:kind>/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
