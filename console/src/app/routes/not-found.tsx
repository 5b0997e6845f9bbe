import { Button, Flex, Result } from 'antd';

export default function NotFoundPage() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status="404"
        title="404 Page Not Found"
        subTitle="Did you forget to add the page to the router?"
        extra={
          <Button type="primary" href="/">
            Back to home
          </Button>
        }
      />
    </Flex>
  );
}
