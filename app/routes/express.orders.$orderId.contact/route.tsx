// /express/orders/:orderId/contact — the contact-service dialog (hours 9:00–21:00, the phone).
import { ContactDialog } from "~/components/orders/ContactDialog";
import { useOrderData } from "~/components/orders/order-data";

export default function ContactRoute() {
  const data = useOrderData();
  if (!data) return null;
  return <ContactDialog path={data.path} hours={data.contact.hours} phone={data.contact.phone} phoneHref={data.contact.phoneHref} />;
}
